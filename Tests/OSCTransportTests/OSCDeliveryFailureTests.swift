import Foundation
import OSCCore
import OSCTransport
import Testing

/// ICMP errors for datagrams sent from an unconnected socket, read from its error queue.
@Suite struct OSCDeliveryFailureTests {
    static func options(_ reader: OSCUDPOptions.Reader) -> OSCUDPOptions {
        var options = OSCUDPOptions()
        options.reader = reader
        return options
    }

    /// A loopback port that nothing listens on (bound, read back, closed again).
    static func closedPort() async throws -> UInt16 {
        let socket = try OSCUDPServer(host: "127.0.0.1", port: 0)
        let port = socket.localAddress.port
        socket.close()
        try await Task.sleep(for: .milliseconds(20))
        return port
    }

    /// Sends to `destination` every 10 ms until a report comes (at most 100 times).
    static func sendUntilReported(
        _ server: OSCUDPServer, to destination: OSCSocketAddress, reports: Collector<OSCDeliveryFailure>
    ) async throws {
        for _ in 0..<100 where reports.count == 0 {
            try server.send([0x2F, 0, 0, 0], to: destination)
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test(
        arguments: [("127.0.0.1", "127.0.0.1"), ("::1", "::1"), ("::", "::ffff:127.0.0.1")],
        [OSCUDPOptions.Reader.thread, .dispatchSource])
    func closedPortIsReportedUnreachable(hosts: (bind: String, target: String), reader: OSCUDPOptions.Reader)
        async throws
    {
        let server = try OSCUDPServer(host: hosts.bind, port: 0, options: Self.options(reader))
        defer { server.close() }
        let reports = Collector<OSCDeliveryFailure>()
        server.start({ _, _ in }, onDeliveryFailure: { reports.append($0) })
        let port = try await Self.closedPort()
        let destination = try #require(OSCSocketAddress(numericHost: hosts.target, port: port))
        try await Self.sendUntilReported(server, to: destination, reports: reports)
        let first = try #require(reports.all.first, "no report for \(destination)")
        #expect(first.destination == destination)
        #expect(first.isUnreachable)
        #expect(first.errno == ECONNREFUSED)
        #expect(first.description.hasPrefix("destination unreachable: "))
        #expect(server.statistics.deliveryFailures >= 1)
    }

    /// A report pending on the socket fails the next send, whatever its destination: the send is
    /// made again, so a live peer loses nothing to a dead one next to it.
    @Test(arguments: [OSCUDPOptions.Reader.thread, .dispatchSource])
    func reportsDoNotCostLivePeersTheirDatagrams(reader: OSCUDPOptions.Reader) async throws {
        let server = try OSCUDPServer(host: "127.0.0.1", port: 0, options: Self.options(reader))
        defer { server.close() }
        let reports = Collector<OSCDeliveryFailure>()
        server.start({ _, _ in }, onDeliveryFailure: { reports.append($0) })
        let live = try OSCUDPServer(host: "127.0.0.1", port: 0)
        defer { live.close() }
        let received = Collector<Int>()
        live.start { bytes, _ in received.append(bytes.count) }
        let dead = try #require(OSCSocketAddress(numericHost: "127.0.0.1", port: try await Self.closedPort()))
        try await Self.sendUntilReported(server, to: dead, reports: reports)
        #expect(reports.count >= 1)
        let count = 500
        for index in 0..<count {
            #expect(try server.send([0x2F, 0, 0, 0], to: dead))
            #expect(try server.send([UInt8(truncatingIfNeeded: index), 0, 0, 0], to: live.localAddress))
            if index % 50 == 49 { try await Task.sleep(for: .milliseconds(2)) }
        }
        #expect(await received.wait(for: count).count == count)
        let statistics = server.statistics
        #expect(statistics.deliveryFailures >= reports.count)
        #expect(reports.all.allSatisfy { $0.destination == dead })
    }

    /// A burst of errors: what waits for the loop is capped, and the rest is counted.
    @Test func aBurstOfReportsIsBounded() async throws {
        let loop = OSCEventLoop(label: "busy")
        let server = try OSCUDPServer(host: "127.0.0.1", port: 0, loop: loop)
        defer { server.close() }
        let reports = Collector<OSCDeliveryFailure>()
        server.start({ _, _ in }, onDeliveryFailure: { reports.append($0) })
        let dead = try #require(OSCSocketAddress(numericHost: "127.0.0.1", port: try await Self.closedPort()))
        try await Self.sendUntilReported(server, to: dead, reports: reports)
        // The loop is held while ICMP errors pile up (the kernel sends about 1000 a second):
        // their reports cannot all wait for it.
        let release = DispatchSemaphore(value: 0)
        loop.execute { release.wait() }
        for index in 0..<4000 {
            try server.send([0x2F, 0, 0, 0], to: dead)
            if index % 10 == 9 { try await Task.sleep(for: .milliseconds(2)) }
        }
        try await Task.sleep(for: .milliseconds(100))
        release.signal()
        try await Task.sleep(for: .milliseconds(100))
        let statistics = server.statistics
        try #require(statistics.deliveryFailures > 400, "too few ICMP errors came back to fill the queue")
        #expect(statistics.deliveryFailuresDropped > 0)
        #expect(reports.count < statistics.deliveryFailures)
        #expect(reports.count + statistics.deliveryFailuresDropped == statistics.deliveryFailures)
    }
}
