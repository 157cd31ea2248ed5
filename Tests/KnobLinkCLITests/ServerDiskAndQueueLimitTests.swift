import Foundation
import OSCCore
import Testing

/// Issue 9, item 7, against `knoblink serve`: presets are capped in count, bytes and saves a
/// second, and one host cannot take every place in the future-bundle queue.
@Suite(.serialized, .offThePool) struct ServerDiskAndQueueLimitTests {
    /// The counter `name` of `/sys/stats s name i value …`.
    static func counter(_ peer: UDPTestPeer, _ name: String) -> Int? {
        let arguments = peer.request("/sys/stats", reply: "/sys/stats")?.arguments ?? []
        for (first, second) in zip(arguments, arguments.dropFirst()) {
            if case .string(name) = first, case .int32(let value) = second { return Int(value) }
        }
        return nil
    }

    static func presetFiles(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
    }

    /// Saves under each name in turn, then waits for a pong, so that every save has been handled.
    static func save(_ names: [String], from peer: UDPTestPeer) {
        for name in names { peer.send("/sys/preset/save", [.string(name)]) }
        #expect(peer.request("/sys/ping", reply: "/sys/pong") != nil)
    }

    @Test func presetCountIsCappedAndReplacingStillWorks() throws {
        let scratch = try Scratch()
        let presets = try scratch.subdirectory("presets")
        let server = try ServeProcess(["--feedback-port", "auto", "--presets", presets, "--max-presets", "3"])
        let peer = try UDPTestPeer(server: server.port)
        Self.save((0..<8).map { "p\($0)" }, from: peer)
        #expect(try Self.presetFiles(presets) == ["p0.json", "p1.json", "p2.json"])
        #expect(Self.counter(peer, "presetLimited") == 5)
        let before = FileManager.default.contents(atPath: presets + "/p1.json")
        peer.send("/knob/gain", 0.875)
        Self.save(["p1"], from: peer)
        #expect(FileManager.default.contents(atPath: presets + "/p1.json") != before, "p1 was not replaced")
        peer.send("/sys/preset/delete", [.string("p0")])
        Self.save(["p9"], from: peer)
        #expect(try Self.presetFiles(presets) == ["p1.json", "p2.json", "p9.json"])
        #expect(Self.counter(peer, "presetLimited") == 5)
        #expect(server.terminate() == 0)
    }

    @Test func presetBytesAreCapped() throws {
        let scratch = try Scratch()
        let presets = try scratch.subdirectory("presets")
        let limit = 4096
        let server = try ServeProcess([
            "--feedback-port", "auto", "--presets", presets, "--max-preset-bytes", "\(limit)",
        ])
        let peer = try UDPTestPeer(server: server.port)
        Self.save((0..<10).map { "p\($0)" }, from: peer)
        let files = try Self.presetFiles(presets)
        let bytes = try files.reduce(0) { total, file in
            let attributes = try FileManager.default.attributesOfItem(atPath: presets + "/" + file)
            return total + ((attributes[.size] as? NSNumber)?.intValue ?? 0)
        }
        #expect(!files.isEmpty && files.count < 10, "\(files)")
        #expect(bytes <= limit, "\(files.count) presets take \(bytes) bytes")
        #expect(Self.counter(peer, "presetLimited") == 10 - files.count)
        let refused = try UDPTestPeer(server: server.port)
        refused.send("/sys/preset/save", [.string("one-more")])
        let error = refused.waitForMessage("/sys/error")
        #expect(error?.strings.last?.contains("\(limit) bytes") == true, "\(String(describing: error))")
        #expect(server.terminate() == 0)
    }

    @Test func presetSavesAreRateLimited() throws {
        let scratch = try Scratch()
        let presets = try scratch.subdirectory("presets")
        let server = try ServeProcess(["--feedback-port", "auto", "--presets", presets, "--preset-save-rate", "1"])
        let peer = try UDPTestPeer(server: server.port)
        let start = ContinuousClock.now
        Self.save(Array(repeating: "same", count: 40), from: peer)
        let seconds = (ContinuousClock.now - start).seconds
        let limited = try #require(Self.counter(peer, "presetLimited"))
        // A burst of 10, then one a second.
        #expect(limited >= 40 - 10 - Int(seconds.rounded(.up)) - 1, "\(limited) refused in \(seconds) s")
        #expect(limited < 40)
        Thread.sleep(forTimeInterval: 1.2)
        Self.save(["same"], from: peer)
        #expect(Self.counter(peer, "presetLimited") == limited, "a save after a pause was refused")
        #expect(server.terminate() == 0)
    }

    /// A host that sends 300 bundles dated two minutes ahead holds 32 of the 256 places; a
    /// bundle from another host, due in 0.3 s, is still taken and applied.
    @Test func oneHostCannotFillTheFutureBundleQueue() throws {
        let server = try ServeProcess(["--feedback-port", "auto"])
        let flooder = try UDPTestPeer(host: "127.0.0.1", server: server.port)
        let other = try UDPTestPeer(host: "127.0.0.2", server: server.port)
        let now = Date().timeIntervalSince1970
        for index in 0..<300 {
            let tag = OSCTimeTag(secondsSince1970: now + 120 + Double(index) / 100)
            flooder.send(.bundle(OSCBundle(timeTag: tag, [.message(OSCMessage("/knob/gain", [.float32(0.5)]))])))
        }
        #expect(flooder.request("/sys/ping", reply: "/sys/pong") != nil)
        let soon = OSCTimeTag(secondsSince1970: Date().timeIntervalSince1970 + 0.3)
        other.send(.bundle(OSCBundle(timeTag: soon, [.message(OSCMessage("/knob/pan", [.float32(0.25)]))])))
        let deadline = ContinuousClock.now + .seconds(3)
        var pan = other.request("/knob/pan")?.number
        while !ServerEchoRuleTests.isClose(pan, 0.25) && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            pan = other.request("/knob/pan")?.number
        }
        #expect(ServerEchoRuleTests.isClose(pan, 0.25), "the bundle of 127.0.0.2 was not applied: pan \(pan ?? -1)")
        #expect((Self.counter(other, "scheduleRefused") ?? 0) >= 300 - 32)
        #expect(server.terminate() == 0)
    }
}
