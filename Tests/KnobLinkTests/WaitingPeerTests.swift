import OSCCore
import Testing

@testable import KnobLink

/// The list of peers with values waiting for their rate (E5) holds subscribers only: a peer that
/// stops subscribing leaves it at once, not when its next value would have been due.
@Suite struct WaitingPeerTests {
    @Test func aPeerThatUnsubscribesLeavesTheWaitingListAtOnce() async throws {
        let fixture = try ServerFixture { $0.implicitSubscriptions = false }
        let controller = try fixture.peer()
        var listeners: [TestPeer] = []
        for _ in 0..<4 {
            let listener = try fixture.peer()
            // One value every ten seconds: the second change below waits for the rate.
            await listener.subscribe(pattern: "/knob/gain", maxHz: 0.1)
            listeners.append(listener)
        }
        controller.send("/knob/gain", [.float32(0.2)])
        controller.send("/knob/gain", [.float32(0.8)])
        await controller.sync()
        #expect(waitingCount(fixture) == listeners.count)
        for (position, listener) in listeners.enumerated() {
            listener.send("/sys/unsubscribe", [.string(listener.url)])
            await listener.sync()
            #expect(waitingCount(fixture) == listeners.count - position - 1)
        }
    }

    @Test func churningSlowSubscribersKeepsTheWaitingListWithinTheSubscribers() async throws {
        let fixture = try ServerFixture {
            $0.implicitSubscriptions = false
            $0.maxPeers = 4
        }
        let controller = try fixture.peer()
        for round in 0..<12 {
            let listener = try fixture.peer()
            await listener.subscribe(pattern: "/knob/*", maxHz: 0.1)
            controller.send("/knob/gain", [.float32(Float(round % 2))])
            controller.send("/knob/pan", [.float32(Float(round % 3) / 2)])
            await controller.sync()
            listener.send("/sys/unsubscribe", [.string(listener.url)])
            await listener.sync()
            let (waiting, subscribers) = fixture.server.onLoop {
                (fixture.server.core.waiting.count, fixture.server.core.subscribers.count)
            }
            #expect(waiting <= subscribers, "round \(round): \(waiting) peers waiting, \(subscribers) subscribers")
        }
    }

    private func waitingCount(_ fixture: ServerFixture) -> Int {
        fixture.server.onLoop { fixture.server.core.waiting.count }
    }
}
