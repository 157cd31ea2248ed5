import Foundation
import OSCCore
import OSCTransport
import Testing

/// `onBatchEnd`: called on the loop after the datagrams of each batch, never without one; a batch
/// is one receive call, or up to `fullBatchesPerEnd` full calls back to back.
@Suite struct OSCBatchEndTests {
    @Test(arguments: [OSCUDPOptions.Reader.thread, .dispatchSource])
    func batchEndFollowsTheDatagramsOfEachReceive(reader: OSCUDPOptions.Reader) async throws {
        var options = OSCUDPOptions()
        options.reader = reader
        let server = try OSCUDPServer(host: "127.0.0.1", port: 0, options: options)
        defer { server.close() }
        // "d" for a datagram, "e" for a batch end, in the order the loop saw them.
        let events = Collector<Character>()
        server.start(
            { _, _ in events.append("d") }, onBatchEnd: { events.append("e") }, onDeliveryFailure: { _ in })
        let client = try OSCUDPClient(remote: server.localAddress)
        defer { client.close() }
        let count = 500
        let datagrams = (0..<count).map { [UInt8(truncatingIfNeeded: $0), 0, 0, 0] }
        #expect(try client.send(contentsOf: datagrams) == count)
        let deadline = ContinuousClock.now + .seconds(5)
        while events.all.count(where: { $0 == "d" }) < count || events.all.last != "e", ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        let seen = String(events.all)
        #expect(seen.count { $0 == "d" } == count)
        #expect(seen.hasPrefix("d") && seen.hasSuffix("e"))
        #expect(!seen.contains("ee"), "a batch end without a datagram before it")
        let ends = seen.count { $0 == "e" }
        #expect(ends >= 1 && ends <= count)
    }

    /// Datagrams queued before the reader starts: the runs between batch ends are at most
    /// `batchSize × fullBatchesPerEnd` long, and runs that long happen, since every call but the
    /// last finds its slots full.
    @Test(arguments: [OSCUDPOptions.Reader.thread, .dispatchSource], [1, 4])
    func fullCallsBackToBackMakeOneBatch(reader: OSCUDPOptions.Reader, fullBatchesPerEnd: Int) async throws {
        var options = OSCUDPOptions()
        options.reader = reader
        options.batchSize = 8
        options.fullBatchesPerEnd = fullBatchesPerEnd
        let runs = try await deliveredRuns(queuing: 100, options: options)
        #expect(runs.reduce(0, +) == 100)
        #expect(runs.allSatisfy { $0 >= 1 && $0 <= 8 * fullBatchesPerEnd }, "runs \(runs)")
        #expect(runs.contains(8 * fullBatchesPerEnd), "runs \(runs)")
    }

    /// When the last call of a batch fills its slots and nothing more comes, the batch still ends
    /// at once: the reader asks again without waiting, finds nothing and reports the end. Both
    /// readers' first call takes a whole batch of what is queued: 8 and 16 end on a full call, 9
    /// on a short one.
    @Test(arguments: [OSCUDPOptions.Reader.thread, .dispatchSource], [8, 9, 16])
    func aFullLastCallEndsItsBatch(reader: OSCUDPOptions.Reader, count: Int) async throws {
        var options = OSCUDPOptions()
        options.reader = reader
        options.batchSize = 8
        let runs = try await deliveredRuns(queuing: count, options: options)
        #expect(runs.reduce(0, +) == count, "runs \(runs)")
    }

    /// Queues `count` datagrams on a server's socket, starts its reader, and returns the number
    /// of datagrams between consecutive batch ends, once the last one was followed by an end (or
    /// after 5 s, with what was seen).
    private func deliveredRuns(queuing count: Int, options: OSCUDPOptions) async throws -> [Int] {
        let server = try OSCUDPServer(host: "127.0.0.1", port: 0, options: options)
        defer { server.close() }
        let client = try OSCUDPClient(remote: server.localAddress)
        defer { client.close() }
        let datagrams = (0..<count).map { [UInt8(truncatingIfNeeded: $0), 0, 0, 0] }
        #expect(try client.send(contentsOf: datagrams) == count)
        let events = Collector<Character>()
        server.start(
            { _, _ in events.append("d") }, onBatchEnd: { events.append("e") }, onDeliveryFailure: { _ in })
        let deadline = ContinuousClock.now + .seconds(5)
        while events.all.count(where: { $0 == "d" }) < count || events.all.last != "e", ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        let seen = String(events.all)
        #expect(seen.hasSuffix("e"), "no batch end after the last datagram: \(seen)")
        return seen.split(separator: "e").map(\.count)
    }
}
