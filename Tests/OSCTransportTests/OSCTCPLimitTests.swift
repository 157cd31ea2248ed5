import Foundation
import OSCCore
import OSCTransport
import Testing

/// The limits of a TCP server's connections (PROTOCOL.md section 8): the first frame in time,
/// the connection idle longest giving way at the cap, and one budget of unfinished input.
@Suite struct OSCTCPLimitTests {
    static func address(of server: OSCTCPServer) -> OSCSocketAddress {
        OSCSocketAddress(numericHost: "127.0.0.1", port: server.localAddress.port)!
    }

    static func onLoop<T: Sendable>(_ server: OSCTCPServer, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in server.loop.execute { continuation.resume(returning: body()) } }
    }

    /// Waits up to 5 s for `condition`, read on the server's loop.
    static func eventually(_ server: OSCTCPServer, _ condition: @escaping @Sendable () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if await onLoop(server, condition) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return await onLoop(server, condition)
    }

    @Test func aConnectionWithoutAFrameInTimeIsClosed() async throws {
        var options = OSCTCPOptions()
        options.firstFrameTimeout = .seconds(1)
        let (server, _, closes) = try OSCTCPTests.echoServer(options: options)
        defer { server.close() }
        let silent = try await OSCTCPClient.connect(to: Self.address(of: server), framing: .slip, onFrame: { _, _ in })
        defer { silent.close() }
        let replies = Collector<[UInt8]>()
        let talking = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: .slip, onFrame: { bytes, _ in replies.append(Array(bytes)) })
        defer { talking.close() }
        talking.send([1, 2, 3, 4])
        #expect(await replies.wait(for: 1).count == 1)
        #expect(await closes.wait(for: 1, seconds: 5) == [.firstFrameTimeout])
        try await Task.sleep(for: .milliseconds(300))
        // The one that sent a frame in time stays past its deadline.
        talking.send([5, 6, 7, 8])
        #expect(await replies.wait(for: 2) == [[1, 2, 3, 4], [5, 6, 7, 8]])
        #expect(closes.count == 1)
    }

    @Test func atTheCapTheConnectionIdleLongestGivesWay() async throws {
        var options = OSCTCPOptions()
        options.maximumConnections = 2
        options.idleEviction = .milliseconds(200)
        let (server, _, closes) = try OSCTCPTests.echoServer(options: options)
        defer { server.close() }
        var idle: [OSCTCPConnection] = []
        for index in 0..<2 {
            let replies = Collector<[UInt8]>()
            let connection = try await OSCTCPClient.connect(
                to: Self.address(of: server), framing: .lengthPrefix,
                onFrame: { bytes, _ in replies.append(Array(bytes)) })
            connection.send([UInt8(index), 0, 0, 0])
            #expect(await replies.wait(for: 1).count == 1)
            idle.append(connection)
            try await Task.sleep(for: .milliseconds(50))
        }
        defer { idle.forEach { $0.close() } }
        try await Task.sleep(for: .milliseconds(300))
        let replies = Collector<[UInt8]>()
        let newcomer = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: .slip, onFrame: { bytes, _ in replies.append(Array(bytes)) })
        defer { newcomer.close() }
        newcomer.send([9, 9, 9, 9])
        #expect(await replies.wait(for: 1) == [[9, 9, 9, 9]])
        #expect(await closes.wait(for: 1) == [.evicted])
        #expect(await Self.onLoop(server) { server.evictedConnections } == 1)
        #expect(await Self.onLoop(server) { server.refusedConnections } == 0)
    }

    @Test func theLargestHolderOfUnfinishedInputIsClosedBeyondTheBudget() async throws {
        var options = OSCTCPOptions()
        options.maximumBufferedBytes = 100_000
        let (server, _, closes) = try OSCTCPTests.echoServer(options: options)
        defer { server.close() }
        func unfinished(_ count: Int) -> [UInt8] {
            // A length prefix announcing 200,000 bytes, then `count` of them.
            [0x00, 0x03, 0x0D, 0x40] + [UInt8](repeating: 0x2F, count: count)
        }
        let smallCloses = Collector<OSCTCPCloseReason>()
        let small = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: .lengthPrefix, onFrame: { _, _ in },
            onClose: { _, reason in smallCloses.append(reason) })
        defer { small.close() }
        small.write(unfinished(40_000))
        #expect(await Self.eventually(server) { server.bufferedBytes == 40_004 })
        let large = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: .lengthPrefix, onFrame: { _, _ in })
        defer { large.close() }
        large.write(unfinished(70_000))
        #expect(await closes.wait(for: 1) == [.inputBudgetExceeded])
        #expect(await Self.eventually(server) { server.budgetClosedConnections == 1 })
        #expect(await Self.eventually(server) { server.bufferedBytes == 40_004 })
        // Others go on.
        let replies = Collector<[UInt8]>()
        let other = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: .slip, onFrame: { bytes, _ in replies.append(Array(bytes)) })
        defer { other.close() }
        other.send([4, 3, 2, 1])
        #expect(await replies.wait(for: 1) == [[4, 3, 2, 1]])
        #expect(smallCloses.count == 0)
    }
}
