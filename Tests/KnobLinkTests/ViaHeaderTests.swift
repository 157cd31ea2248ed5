import OSCCore
import Testing

@testable import KnobLink

@Suite struct ViaHeaderTests {
    @Test func encodesAsTheProtocolSays() {
        let header = ViaHeader(ttl: 7, instances: ["a:8000", "b:8001"])
        #expect(header.message == OSCMessage("/sys/via", [.int32(7), .string("a:8000"), .string("b:8001")]))
        #expect(ViaHeader.originating(from: "a").message == OSCMessage("/sys/via", [.int32(8), .string("a")]))
    }

    @Test func roundTripsThroughBytes() throws {
        let header = ViaHeader(ttl: 3, instances: ["one", "two", "three"])
        let bytes = OSCPacket.message(header.message).encoded()
        guard case .message(let message) = try OSCPacket.decode(bytes) else {
            Issue.record("not a message")
            return
        }
        #expect(try ViaHeader(message) == header)
    }

    @Test(arguments: [
        (OSCMessage("/sys/vias", [.int32(1)]), ViaHeaderError.noViaHeader),
        (OSCMessage("/sys/via"), .invalidHeader(reason: "no ttl")),
        (OSCMessage("/sys/via", [.float32(8)]), .invalidHeader(reason: "the ttl must be an int32 ('i'), got 'f'")),
        (OSCMessage("/sys/via", [.int32(-1)]), .invalidHeader(reason: "negative ttl -1")),
        (
            OSCMessage("/sys/via", [.int32(8), .string("a"), .int32(2)]),
            .invalidHeader(reason: "name 2 is not a string")
        ),
        (
            OSCMessage("/sys/via", [.int32(8)] + Array(repeating: .string("x"), count: 256)),
            .invalidHeader(reason: "more than 255 names")
        ),
    ])
    func refusesBadHeaders(message: OSCMessage, expected: ViaHeaderError) {
        #expect(throws: expected) { try ViaHeader(message) }
    }

    @Test func forwardingDecrementsAndAppends() {
        let header = ViaHeader.originating(from: "a")
        let once = header.forwarded(by: "b")
        #expect(once == ViaHeader(ttl: 7, instances: ["a", "b"]))
        #expect(once?.names("a") == true)
        #expect(once?.names("c") == false)
        #expect(ViaHeader(ttl: 0, instances: ["a"]).forwarded(by: "b") == nil)
        #expect(ViaHeader(ttl: 1, instances: ["a"]).forwarded(by: "b")?.ttl == 0)
        // Eight forwards from the origin: the ninth instance gets ttl 0 and stops there.
        var hops: ViaHeader? = header
        var reached = 1
        while let current = hops {
            hops = current.forwarded(by: "n\(reached)")
            reached += 1
        }
        #expect(reached == 10)
    }

    @Test func linkBundleReadsValuesAndCountsTheRest() throws {
        let packet = OSCPacket.bundle(
            OSCBundle(
                timeTag: .immediately,
                [
                    .message(OSCMessage("/sys/via", [.int32(5), .string("a")])),
                    .message(OSCMessage("/knob/gain", [.float32(0.25)])),
                    .message(OSCMessage("/knob/pan", [.double(0.5)])),
                    .message(OSCMessage("/toggle/retrigger", [.int32(1)])),
                    .message(OSCMessage("/knob/gain/str", [.string("-6 dB")])),
                    .message(OSCMessage("/knob/gain", [])),
                    .bundle(OSCBundle(timeTag: .immediately, [])),
                ]))
        let bundle = try LinkBundle(packet)
        #expect(bundle.via == ViaHeader(ttl: 5, instances: ["a"]))
        #expect(
            bundle.values == [
                LinkValue(address: "/knob/gain", value: 0.25), LinkValue(address: "/knob/pan", value: 0.5),
                LinkValue(address: "/toggle/retrigger", value: 1),
            ])
        #expect(bundle.ignoredMessages == 3)
    }

    @Test func linkBundleNeedsTheHeaderFirst() {
        let noHeader = OSCPacket.bundle(
            OSCBundle(timeTag: .immediately, [.message(OSCMessage("/knob/gain", [.float32(0.25)]))]))
        #expect(throws: ViaHeaderError.noViaHeader) { try LinkBundle(noHeader) }
        #expect(throws: ViaHeaderError.notABundle) { try LinkBundle(.message(OSCMessage("/sys/via", [.int32(1)]))) }
        #expect(throws: ViaHeaderError.notABundle) { try LinkBundle(.bundle(OSCBundle(timeTag: .immediately, []))) }
    }

    @Test func datagramsAreSplitAndEachCarriesTheHeader() throws {
        let values = (0..<200).map { LinkValue(address: "/group/parameter\($0)", value: Float($0) / 200) }
        let bundle = LinkBundle(via: ViaHeader(ttl: 6, instances: ["a", "b"]), values: values)
        let datagrams = bundle.datagrams(limit: 1472)
        #expect(datagrams.count > 1)
        var seen: [LinkValue] = []
        for datagram in datagrams {
            #expect(datagram.count <= 1472)
            #expect(datagram.withUnsafeBytes { LinkBundle.isLinkBundle($0) })
            let decoded = try LinkBundle(try OSCPacket.decode(datagram))
            #expect(decoded.via == bundle.via)
            seen += decoded.values
        }
        #expect(seen == values)
        #expect(LinkBundle(via: bundle.via, values: []).datagrams(limit: 1472).isEmpty)
    }

    @Test func quickTestRecognisesOnlyLinkBundles() {
        func check(_ packet: OSCPacket) -> Bool { packet.encoded().withUnsafeBytes { LinkBundle.isLinkBundle($0) } }
        let via = OSCPacket.message(OSCMessage("/sys/via", [.int32(1)]))
        #expect(check(.bundle(OSCBundle(timeTag: .immediately, [via]))))
        #expect(!check(via))
        #expect(!check(.bundle(OSCBundle(timeTag: .immediately, [.message(OSCMessage("/sys/viaduct"))]))))
        #expect(!check(.bundle(OSCBundle(timeTag: .immediately, [.message(OSCMessage("/knob/gain"))]))))
        #expect(![UInt8](repeating: 0, count: 8).withUnsafeBytes { LinkBundle.isLinkBundle($0) })
    }
}
