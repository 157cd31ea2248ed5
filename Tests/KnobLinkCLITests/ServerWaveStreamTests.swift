import Foundation
import OSCCore
import Testing

/// The wave stream end to end: a python-osc visualiser (Peers/python/wave_visualiser.py) against
/// the real `knoblink serve`, with the generated demo signal. Each visualiser listens on the
/// feedback port at a loopback address of its own (a peer is IP + feedback port) and reassembles
/// overview frames itself, printing each complete one as `/overview`.
@Suite(.serialized, .offThePool) struct ServerWaveStreamTests {
    struct Setup {
        let first: PythonPeer
        let second: PythonPeer
        let feedbackPort: UInt16
        let server: ServeProcess

        init(_ arguments: [String] = []) throws {
            first = try PythonPeer(script: "wave_visualiser.py", ["127.0.0.2", "0"])
            feedbackPort = try #require(first.listenPort)
            second = try PythonPeer(script: "wave_visualiser.py", ["127.0.0.3", "\(feedbackPort)"])
            server = try ServeProcess(["--feedback-port", "\(feedbackPort)"] + arguments)
            for peer in [first, second] { peer.command("target \(server.port)") }
        }

        func url(_ peer: PythonPeer) -> String {
            "osc.udp://\(peer === first ? "127.0.0.2" : "127.0.0.3"):\(feedbackPort)/"
        }

        /// Subscribes `peer` and waits for its overview; returns the index of the first message after it.
        @discardableResult
        func subscribe(_ peer: PythonPeer, bars: Int = 64, hz: Double = 30, flags: Int = 0) -> Int? {
            let mark = peer.mark
            peer.send("/wave/sub", "s \(url(peer)) i \(bars) f \(hz) i \(flags)")
            guard peer.wait(until: { $0.dropFirst(mark).contains { $0.address == "/wave/progress" } }) else {
                return nil
            }
            return peer.mark
        }
    }

    /// The last complete overview after `after`: its form and bars.
    static func overview(_ peer: PythonPeer, after: Int = 0) -> (form: String, bars: [Float])? {
        guard let message = peer.messages.dropFirst(after).last(where: { $0.address == "/overview" }) else {
            return nil
        }
        guard case .string(let form) = message.arguments[1] else { return nil }
        let bars = message.arguments.dropFirst(3).compactMap { if case .float32(let v) = $0 { v } else { nil } }
        return (form, bars)
    }

    static func progress(_ peer: PythonPeer, after: Int) -> [Float] {
        peer.messages.dropFirst(after).filter { $0.address == "/wave/progress" }.compactMap {
            $0.number.map(Float.init)
        }
    }

    @Test func aVisualiserReassemblesTheOverviewInBothForms() throws {
        let setup = try Setup()
        let mark = setup.first.mark
        // 3000 bars do not fit in one 8192-byte datagram: the frame comes in pieces.
        #expect(setup.subscribe(setup.first, bars: 3000) != nil)
        let blob = try #require(Self.overview(setup.first, after: mark))
        #expect(blob.form == "blob" && blob.bars.count == 3000)
        let pieces = setup.first.messages.dropFirst(mark).filter { $0.address == "/wave/bars" }
        #expect(pieces.count >= 2)
        #expect(Set(pieces.map { $0.arguments[0] }).count == 1)
        let offsets = pieces.compactMap { if case .int32(let v) = $0.arguments[1] { v } else { nil } }
        #expect(offsets == offsets.sorted() && offsets.first == 0)
        // Normalised peaks of the demo signal: the loudest bar is 1, and it has a shape.
        #expect(blob.bars.allSatisfy { $0 >= 0 && $0 <= 1 })
        #expect(abs((blob.bars.max() ?? 0) - 1) < 1e-6)
        #expect((blob.bars.min() ?? 1) < 0.2)
        let again = setup.first.mark
        #expect(setup.subscribe(setup.first, bars: 3000, flags: 1) != nil)
        let floats = try #require(Self.overview(setup.first, after: again))
        #expect(floats.form == "float")
        #expect(floats.bars == blob.bars)
        #expect(setup.first.messages.dropFirst(again).filter { $0.address == "/wave/bars/f" }.count == (3000 + 63) / 64)
        #expect(setup.server.terminate() == 0)
    }

    @Test func aVisualiserFollowsProgressWhilePlaying() throws {
        let setup = try Setup()
        let mark = try #require(setup.subscribe(setup.first, hz: 60))
        setup.second.send("/wave/play")
        #expect(setup.first.wait { _ in Self.progress(setup.first, after: mark).count >= 6 })
        let values = Self.progress(setup.first, after: mark)
        #expect(values == values.sorted() && values.allSatisfy { $0 >= 0 && $0 < 1 }, "\(values)")
        #expect(setup.first.messages(to: "/wave/playing").last?.number == 1)
        let levels = setup.first.messages.dropFirst(mark).filter { $0.address == "/wave/level" }.compactMap(\.number)
        #expect(!levels.isEmpty && levels.allSatisfy { $0 >= 0 && $0 <= 1 })
        setup.second.send("/wave/pause")
        #expect(setup.first.wait { $0.dropFirst(mark).contains { $0.address == "/wave/playing" && $0.number == 0 } })
        #expect(setup.server.terminate() == 0)
    }

    @Test func aScrubFromASecondPeerMovesTheFirstAndNotItself() throws {
        let setup = try Setup()
        let first = try #require(setup.subscribe(setup.first))
        let second = try #require(setup.subscribe(setup.second))
        setup.second.send("/wave/progress", "f 0.5")
        #expect(setup.first.wait { _ in Self.progress(setup.first, after: first) == [0.5] })
        // The scrubber's own value does not come back (E2): a reply to a later request arrives first.
        setup.second.send("/wave/info")
        #expect(setup.second.waitForMessage("/wave/info", after: second) != nil)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(Self.progress(setup.second, after: second).isEmpty)
        // Playing on from the scrubbed place.
        setup.second.send("/wave/play")
        #expect(setup.first.wait { _ in Self.progress(setup.first, after: first).count >= 4 })
        #expect(Self.progress(setup.first, after: first).allSatisfy { $0 >= 0.5 })
        #expect(setup.server.terminate() == 0)
    }

    @Test func theStreamIsCountedInStats() throws {
        let setup = try Setup()
        #expect(setup.subscribe(setup.first) != nil)
        setup.second.send("/wave/progress", "f 0.25")
        let mark = setup.second.mark
        setup.second.send("/sys/stats")
        #expect(setup.second.wait { $0.dropFirst(mark).contains { $0.address == "/sys/stats" } })
        var counters: [String: Int32] = [:]
        for message in setup.second.messages.dropFirst(mark) where message.address == "/sys/stats" {
            var arguments = message.arguments[...]
            while case .string(let name) = arguments.popFirst(), case .int32(let value) = arguments.popFirst() {
                counters[name] = value
            }
        }
        #expect(counters["waveSubscribers"] == 1)
        #expect(counters["waveScrubs"] == 1)
        #expect(counters["waveOverviews"] == 1)
        // Logged like the rest.
        #expect(
            setup.server.stderr.contains("info: peer udp 127.0.0.2:\(setup.feedbackPort) subscribed to the wave stream")
        )
        #expect(setup.server.terminate() == 0)
    }
}
