import Dispatch
import OSCCore
import OSCTransport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Sends packets to one receiver over UDP, or over a TCP connection with the chosen framing.
final class PacketSender: Sendable {
    private enum Channel {
        case udp(OSCUDPClient)
        case tcp(OSCTCPConnection)
        case output(OutputFile)
    }

    private let channel: Channel
    private let loop = OSCEventLoop(label: "knoblink.send")

    /// Resolves the destination and opens the socket (and, for TCP, the connection).
    /// - Throws: ``CommandFailure`` when the host does not resolve or no address accepts the connection.
    init(destination: SendDestination, framing: OSCFraming) throws(CommandFailure) {
        do {
            switch destination {
            case .network(let url) where url.transport == .udp:
                channel = .udp(try OSCUDPClient(url: url, loop: loop))
            case .network(let url):
                channel = .tcp(try Self.connect(to: url.resolve(), framing: framing, loop: loop))
            case .file(let path):
                guard let handle = OutputFile(forWritingAtPath: path, append: false) else {
                    throw CommandFailure("could not create \(path)")
                }
                channel = .output(handle)
            case .standardOutput:
                channel = .output(.standardOutput)
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch let error as OSCSocketAddressError {
            guard case .unresolvedHost(let host, let reason) = error else { throw CommandFailure("\(error)") }
            throw CommandFailure("could not resolve '\(host)': \(reason)")
        } catch {
            guard case .network(let url) = destination else { throw CommandFailure("\(error)") }
            throw CommandFailure("could not reach \(url): \(error)")
        }
    }

    /// Tries each address of the host in turn, as `oscsend` does through `getaddrinfo`.
    private static func connect(
        to addresses: [OSCSocketAddress],
        framing: OSCFraming,
        loop: OSCEventLoop
    ) throws -> OSCTCPConnection {
        var lastError: any Error = CommandFailure("no address")
        for address in addresses {
            let outcome = MainThreadWait.result { () async throws(OSCSystemError) -> OSCTCPConnection in
                try await OSCTCPClient.connect(
                    to: address, framing: framing, loop: loop, onFrame: { _, _ in }, onClose: { _, _ in })
            }
            switch outcome {
            case .success(let connection): return connection
            case .failure(let error): lastError = error
            }
        }
        throw lastError
    }

    /// Sends one packet.
    ///
    /// Over UDP a full send buffer is waited out rather than dropping the packet, and a port
    /// found closed (`ECONNREFUSED`, from an earlier datagram) is ignored, as `oscsend` ignores
    /// it. Over TCP the packet joins the connection's write queue, which is kept short.
    /// - Throws: ``CommandFailure`` for any other error of the socket.
    func send(_ packet: OSCPacket) throws(CommandFailure) {
        let bytes = packet.encoded()
        switch channel {
        case .udp(let client):
            for _ in 0..<5000 {
                do {
                    if try client.send(bytes) { return }
                } catch let error where error.errno == ECONNREFUSED {
                    return
                } catch {
                    throw CommandFailure("could not send: \(error)")
                }
                usleep(1000)
            }
            throw CommandFailure("could not send: the send buffer stayed full")
        case .tcp(let connection):
            try waitForQueue(of: connection, below: 1 << 20)
            connection.send(bytes)
        case .output(let handle):
            do {
                try handle.write(contentsOf: Array(bytes))
            } catch {
                throw CommandFailure("could not write: \(error)")
            }
        }
    }

    /// Waits until the connection has fewer than `limit` bytes queued; a connection that does
    /// not drain in 10 seconds, or closes, is a failure.
    private func waitForQueue(of connection: OSCTCPConnection, below limit: Int) throws(CommandFailure) {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let (queued, closed) = loop.queue.sync { (connection.queuedBytes, connection.isClosed) }
            if closed { throw CommandFailure("the connection closed before everything was sent") }
            if queued < limit { return }
            if Date() > deadline { throw CommandFailure("the receiver did not read for 10 seconds") }
            usleep(1000)
        }
    }

    /// Sends what is still queued, then closes.
    /// - Throws: ``CommandFailure`` if the queue does not drain.
    func finish() throws(CommandFailure) {
        switch channel {
        case .udp(let client):
            client.close()
        case .output:
            // OutputFile writes are not buffered: everything is written already.
            break
        case .tcp(let connection):
            defer { connection.close() }
            // The write queue lives on the loop: sync with it first so that the last send is queued.
            try waitForQueue(of: connection, below: 1)
        }
    }
}
