import Foundation
import OSCCore
import Testing

/// Two TouchOSC-like surfaces written with python-osc (Peers/python/touchosc_peer.py): each sends
/// normalised floats and `/z` touch messages from an ephemeral port and listens on the feedback
/// port, on a loopback address of its own (a peer is IP + feedback port).
@Suite(.serialized, .offThePool) struct ServerTouchOSCTests {
    struct Setup {
        let first: PythonPeer
        let second: PythonPeer
        let feedbackPort: UInt16
        let server: ServeProcess

        init(_ arguments: [String] = []) throws {
            first = try PythonPeer.touchOSC(host: "127.0.0.2")
            feedbackPort = try #require(first.listenPort)
            second = try PythonPeer.touchOSC(host: "127.0.0.3", listenPort: feedbackPort)
            server = try ServeProcess(["--feedback-port", "\(feedbackPort)"] + arguments)
            for surface in [first, second] {
                surface.command("target \(server.port)")
                // A surface shows the real state once it has sent anything to a parameter (9.7).
                surface.send("/knob/pan", "f 0.5")
                #expect(
                    surface.wait { $0.contains(OSCMessage("/sys/update", [.int32(0)])) }, "no implicit subscription")
            }
        }
    }

    /// The values for `address`, rounded to 1e-5: a value goes through the parameter's own
    /// units and back, which may change its last bits.
    static func floats(_ messages: [OSCMessage], _ address: String) -> [Float] {
        messages.filter { $0.address == address }.compactMap { $0.number.map { Float(($0 * 1e5).rounded() / 1e5) } }
    }

    @Test func aGestureOnOneSurfaceReachesTheOtherAndNeverComesBack() throws {
        let setup = try Setup()
        let mark = setup.first.mark
        let secondMark = setup.second.mark
        setup.first.send("/knob/gain/z", "f 1")
        let gesture: [Float] = [0.3, 0.35, 0.4, 0.45, 0.5]
        for value in gesture {
            setup.first.send("/knob/gain", "f \(value)")
            Thread.sleep(forTimeInterval: 0.04)
        }
        #expect(setup.second.wait { Self.floats($0, "/knob/gain").last == 0.5 }, "\(setup.second.messages)")
        let duringTouch = Array(setup.first.messages.dropFirst(mark))
        #expect(Self.floats(duringTouch, "/knob/gain").isEmpty, "its own values came back while touching")
        let released = setup.first.mark
        setup.first.send("/knob/gain/z", "f 0")
        // Another peer's change after the gesture shows the first surface is still subscribed.
        setup.second.send("/knob/frequency", "f 0.6")
        #expect(setup.first.wait { Self.floats($0, "/knob/frequency").last == 0.6 })
        Thread.sleep(forTimeInterval: 0.4)
        // On release it may get the final value once (E4), never the gesture.
        let back = Self.floats(Array(setup.first.messages.dropFirst(released)), "/knob/gain")
        #expect(back.isEmpty || back == [0.5], "\(back)")
        let seen = Self.floats(Array(setup.second.messages.dropFirst(secondMark)), "/knob/gain")
        let inGesture = seen.allSatisfy { value in gesture.contains { abs($0 - value) < 1e-5 } }
        #expect(inGesture && seen == seen.sorted(), "\(seen)")
        let own = Self.floats(Array(setup.second.messages.dropFirst(secondMark)), "/knob/frequency")
        #expect(own.isEmpty, "the second surface got its own value back")
        #expect(setup.server.terminate() == 0)
    }

    @Test func whileOneSurfaceTouchesItGetsNoFeedbackThenTheFinalValue() throws {
        let setup = try Setup()
        let mark = setup.first.mark
        setup.first.send("/knob/gain/z", "f 1")
        setup.first.send("/knob/gain", "f 0.3")
        Thread.sleep(forTimeInterval: 0.05)
        setup.second.send("/knob/gain", "f 0.7")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(Self.floats(Array(setup.first.messages.dropFirst(mark)), "/knob/gain").isEmpty)
        setup.first.send("/knob/gain/z", "f 0")
        #expect(setup.first.wait { Self.floats(Array($0.dropFirst(mark)), "/knob/gain") == [0.7] })
        Thread.sleep(forTimeInterval: 0.3)
        #expect(Self.floats(Array(setup.first.messages.dropFirst(mark)), "/knob/gain") == [0.7])
        #expect(setup.server.terminate() == 0)
    }

    @Test func aSteppedParameterIsCorrected() throws {
        let setup = try Setup()
        let mark = setup.first.mark
        setup.first.send("/toggle/retrigger", "f 0.7")
        #expect(setup.first.wait { Self.floats(Array($0.dropFirst(mark)), "/toggle/retrigger") == [1] })
        #expect(setup.second.wait { Self.floats($0, "/toggle/retrigger").last == 1 })
        setup.first.send("/knob/gain", "f 2.5")
        #expect(setup.first.wait { Self.floats(Array($0.dropFirst(mark)), "/knob/gain") == [1] })
        Thread.sleep(forTimeInterval: 0.3)
        #expect(Self.floats(Array(setup.first.messages.dropFirst(mark)), "/toggle/retrigger") == [1])
        #expect(setup.server.terminate() == 0)
    }

    /// Changes that come from no surface (another peer, a preset load) reach both.
    @Test func changesFromElsewhereReachBothSurfaces() throws {
        let scratch = try Scratch()
        let setup = try Setup(["--presets", try scratch.subdirectory("presets")])
        let script = try UDPTestPeer(host: "127.0.0.4", port: setup.feedbackPort, server: setup.server.port)
        script.send("/knob/frequency", 0.25)
        for surface in [setup.first, setup.second] {
            #expect(surface.wait { Self.floats($0, "/knob/frequency").last == 0.25 })
        }
        script.send("/sys/preset/save", [.string("p")])
        Thread.sleep(forTimeInterval: 0.2)
        script.send("/knob/frequency", 0.75)
        for surface in [setup.first, setup.second] {
            #expect(surface.wait { Self.floats($0, "/knob/frequency").last == 0.75 })
        }
        script.send("/sys/preset/load", [.string("p")])
        for surface in [setup.first, setup.second] {
            #expect(surface.wait { Self.floats($0, "/knob/frequency").last == 0.25 }, "\(surface.messages)")
        }
        #expect(setup.server.terminate() == 0)
    }
}
