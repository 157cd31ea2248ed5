import Foundation
import OSCCore
import OSCTransport
import Testing

@Suite struct OSCUDPTests {
    static func options(_ reader: OSCUDPOptions.Reader) -> OSCUDPOptions {
        var options = OSCUDPOptions()
        options.reader = reader
        return options
    }

    @Test(arguments: ["127.0.0.1", "::1"], [OSCUDPOptions.Reader.thread, .dispatchSource])
    func sendsAndReceivesOnLoopback(host: String, reader: OSCUDPOptions.Reader) async throws {
        let server = try OSCUDPServer(host: host, port: 0, options: Self.options(reader))
        defer { server.close() }
        #expect(server.localAddress.port != 0)
        let received = Collector<OSCDatagram>()
        server.start { bytes, sender in received.append(OSCDatagram(bytes: Array(bytes), sender: sender)) }
        let client = try OSCUDPClient(remote: server.localAddress, options: Self.options(reader))
        defer { client.close() }
        for index in 0..<100 { try client.send([UInt8(index), 1, 2, 3]) }
        let got = await received.wait(for: 100)
        #expect(got.count == 100)
        #expect(got.map { $0.bytes[0] } == (0..<100).map { UInt8($0) })
        #expect(got.first?.sender == client.localAddress.withHost(host))
    }

    @Test func receiveBufferIsEnlarged() throws {
        let server = try OSCUDPServer(host: "127.0.0.1")
        defer { server.close() }
        #expect(server.receiveBufferSize >= 2 << 20)
    }

    @Test(arguments: [OSCUDPOptions.Reader.thread, .dispatchSource])
    func closingReleasesThePort(reader: OSCUDPOptions.Reader) async throws {
        let server = try OSCUDPServer(host: "127.0.0.1", options: Self.options(reader))
        let port = server.localAddress.port
        server.start { _, _ in }
        // Give the reader time to be waiting in its receive call, which close() must interrupt.
        try await Task.sleep(for: .milliseconds(20))
        server.close()
        var rebound: OSCUDPServer?
        for _ in 0..<100 where rebound == nil {
            try await Task.sleep(for: .milliseconds(10))
            rebound = try? OSCUDPServer(host: "127.0.0.1", port: port)
        }
        #expect(rebound != nil)
        rebound?.close()
    }

    @Test(arguments: [OSCUDPOptions.Reader.thread, .dispatchSource])
    func repliesLeaveFromTheListeningPort(reader: OSCUDPOptions.Reader) async throws {
        let server = try OSCUDPServer(host: "127.0.0.1", options: Self.options(reader))
        defer { server.close() }
        server.start { bytes, sender in _ = try? server.send(Array(bytes) + [9], to: sender) }
        let client = try OSCUDPClient(remote: server.localAddress)
        defer { client.close() }
        let replies = Collector<OSCDatagram>()
        client.start { bytes, sender in replies.append(OSCDatagram(bytes: Array(bytes), sender: sender)) }
        try client.send([1, 2])
        let got = await replies.wait(for: 1)
        #expect(got.first?.bytes == [1, 2, 9])
        #expect(got.first?.sender == server.localAddress)
    }

    @Test(arguments: [OSCUDPOptions.Reader.thread, .dispatchSource])
    func blockingReceiveWaitsForTheReply(reader: OSCUDPOptions.Reader) async throws {
        let server = try OSCUDPServer(host: "127.0.0.1")
        defer { server.close() }
        server.start { bytes, sender in _ = try? server.send(Array(bytes.reversed()), to: sender) }
        let client = try OSCUDPClient(remote: server.localAddress, options: Self.options(reader))
        defer { client.close() }
        // The wait blocks, so it runs on a thread of its own, never on the concurrency pool.
        let replies = Collector<[UInt8]?>()
        let thread = Thread {
            for index in 0..<3 {
                _ = try? client.send([UInt8(index), 1, 2])
                replies.append(try? client.receive(timeout: .seconds(2))?.bytes)
            }
            // Nothing more comes: the wait ends at its timeout with nil.
            replies.append(try? client.receive(timeout: .milliseconds(50))?.bytes)
        }
        thread.start()
        #expect(await replies.wait(for: 4) == [[2, 1, 0], [2, 1, 1], [2, 1, 2], nil])
    }

    @Test func blockingReceiveIsRefusedOnceAReaderRuns() throws {
        let server = try OSCUDPServer(host: "127.0.0.1")
        defer { server.close() }
        let client = try OSCUDPClient(remote: server.localAddress)
        defer { client.close() }
        client.start { _, _ in }
        #expect(throws: OSCSystemError.self) { try client.receive(timeout: .milliseconds(1)) }
    }

    @Test(arguments: [OSCUDPOptions.Reader.thread, .dispatchSource])
    func batchedSendsArriveWithoutLoss(reader: OSCUDPOptions.Reader) async throws {
        let server = try OSCUDPServer(host: "127.0.0.1", options: Self.options(reader))
        defer { server.close() }
        let count = Collector<Int>()
        server.start { bytes, _ in count.append(bytes.count) }
        let client = try OSCUDPClient(remote: server.localAddress)
        defer { client.close() }
        let datagrams = (0..<2000).map { [UInt8](repeating: UInt8(truncatingIfNeeded: $0), count: 24) }
        #expect(try client.send(contentsOf: datagrams) == 2000)
        #expect(await count.wait(for: 2000).count == 2000)
        #expect(server.statistics.received == 2000)
    }

    @Test func asyncStreamDeliversDatagrams() async throws {
        let server = try OSCUDPServer(host: "127.0.0.1")
        let stream = server.datagrams()
        let client = try OSCUDPClient(remote: server.localAddress)
        defer { client.close() }
        try client.send([7, 7])
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.bytes == [7, 7])
        server.close()
    }

    @Test func oversizedDatagramsAreDroppedAndCounted() async throws {
        var options = OSCUDPOptions()
        options.maximumDatagramSize = 100
        let server = try OSCUDPServer(host: "127.0.0.1", options: options)
        defer { server.close() }
        let sizes = Collector<Int>()
        server.start { bytes, _ in sizes.append(bytes.count) }
        let client = try OSCUDPClient(remote: server.localAddress)
        defer { client.close() }
        try client.send([UInt8](repeating: 1, count: 101))
        try client.send([UInt8](repeating: 1, count: 100))
        #expect(await sizes.wait(for: 1) == [100])
        #expect(server.statistics.truncated == 1)
    }

    @Test func multicastOnLoopback() async throws {
        var options = OSCUDPOptions()
        options.reuseAddress = true
        let server = try OSCUDPServer(host: "0.0.0.0", options: options)
        defer { server.close() }
        try server.joinMulticastGroup("239.255.77.77", interface: "127.0.0.1")
        let received = Collector<[UInt8]>()
        server.start { bytes, _ in received.append(Array(bytes)) }
        var clientOptions = OSCUDPOptions()
        clientOptions.multicastInterface = "127.0.0.1"
        let group = try #require(OSCSocketAddress(numericHost: "239.255.77.77", port: server.localAddress.port))
        let client = try OSCUDPClient(remote: group, options: clientOptions)
        defer { client.close() }
        try client.send([1, 2, 3, 4])
        #expect(await received.wait(for: 1, seconds: 2) == [[1, 2, 3, 4]])
    }

    @Test func broadcastOnLoopback() async throws {
        let server = try OSCUDPServer(host: "0.0.0.0")
        defer { server.close() }
        let received = Collector<[UInt8]>()
        server.start { bytes, _ in received.append(Array(bytes)) }
        var options = OSCUDPOptions()
        options.broadcast = true
        let target = try #require(OSCSocketAddress(numericHost: "127.255.255.255", port: server.localAddress.port))
        let client = try OSCUDPClient(remote: target, options: options)
        defer { client.close() }
        try client.send([5, 6, 7, 8])
        #expect(await received.wait(for: 1, seconds: 2) == [[5, 6, 7, 8]])
    }
}

extension OSCSocketAddress {
    /// The same port on another host: a client bound to the wildcard address is seen by its
    /// peer at the loopback address it sent to.
    func withHost(_ host: String) -> OSCSocketAddress? {
        OSCSocketAddress(numericHost: host, port: port)
    }
}
