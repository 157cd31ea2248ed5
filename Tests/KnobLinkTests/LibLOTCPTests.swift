import CLibLO
import Foundation
import OSCCore
import OSCTransport
import Testing

@testable import KnobLink

/// Rule 9.13 and PROTOCOL.md section 1: liblo's own TCP client in SLIP mode sends each packet
/// followed by one END and no END first, so its connection starts with `/` or `#`; the server
/// reads it as SLIP, a message and a bundle alike.
@Suite struct LibLOTCPTests {
    static func wait(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        return condition()
    }

    @Test(arguments: [true, false])
    func libloTCPClientInSLIPModeReachesTheServer(bundleFirst: Bool) async throws {
        let fixture = try ServerFixture()
        let pan = try #require(fixture.tree.parameter(forKeyPath: "knob.pan"))
        let gain = try #require(fixture.tree.parameter(forKeyPath: "knob.gain"))
        let address = try #require(lo_address_new_with_proto(LO_TCP, "127.0.0.1", "\(fixture.port)"))
        defer { lo_address_free(address) }
        #expect(lo_address_set_stream_slip(address, 1) == 0)
        func sendMessage() {
            let message = lo_message_new()!
            lo_message_add_float(message, 0.25)
            #expect(lo_send_message(address, "/knob/pan", message) > 0)
            lo_message_free(message)
        }
        func sendBundle() {
            let bundle = lo_bundle_new(lo_timetag(sec: 0, frac: 1))!
            let inner = lo_message_new()!
            lo_message_add_float(inner, 0.5)
            lo_bundle_add_message(bundle, "/knob/gain", inner)
            #expect(lo_send_bundle(address, bundle) > 0)
            lo_bundle_free_recursive(bundle)
        }
        if bundleFirst {
            sendBundle()
            sendMessage()
        } else {
            sendMessage()
            sendBundle()
        }
        #expect(await Self.wait { abs(pan.normalizedValue - 0.25) < 1e-6 }, "the message was not applied")
        #expect(await Self.wait { abs(gain.normalizedValue - 0.5) < 1e-6 }, "the bundle was not applied")
        #expect(fixture.statistic("otherProtocol") == 0)
        #expect(fixture.statistic("malformed") == 0)
    }
}
