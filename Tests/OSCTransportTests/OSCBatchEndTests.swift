import Foundation
import OSCCore
import OSCTransport
import Testing

/// `onBatchEnd`: called on the loop after the datagrams of each receive call, never without one.
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
}
