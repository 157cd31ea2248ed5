import Dispatch
import Foundation
import OSCCore
import OSCTransport
import Synchronization

/// Sends packets to one receiver over UDP, or over a TCP connection with the chosen framing.
final class PacketSender: Sendable {
    private enum Channel {
        case udp(OSCUDPClient)
        case tcp(OSCTCPConnection)
    }

    private let channel: Channel
    private let loop = OSCEventLoop(label: "knoblink.send")

    /// Resolves the destination and opens the socket (and, for TCP, the connection).
    /// - Throws: ``CommandFailure`` when the host does not resolve or no address accepts the connection.
    init(destination: OSCURL, framing: OSCFraming) throws(CommandFailure) {
        do {
            switch destination.transport {
            case .udp:
                channel = .udp(try OSCUDPClient(url: destination, loop: loop))
            case .tcp:
                channel = .tcp(try Self.connect(to: destination.resolve(), framing: framing, loop: loop))
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("could not reach \(destination): \(error)")
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
            let outcome = Mutex<Result<OSCTCPConnection, OSCSystemError>?>(nil)
            let done = DispatchSemaphore(value: 0)
            // The calling thread is the main thread, not one of the concurrency pool's, so
            // waiting here for the connection blocks nothing that the connection needs.
            Task {
                let result: Result<OSCTCPConnection, OSCSystemError>
                do throws(OSCSystemError) {
                    result = .success(
                        try await OSCTCPClient.connect(
                            to: address, framing: framing, loop: loop, onFrame: { _, _ in },
                            onClose: { _, _ in }))
                } catch {
                    result = .failure(error)
                }
                outcome.withLock { $0 = result }
                done.signal()
            }
            done.wait()
            switch outcome.withLock({ $0 })! {
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
                Thread.sleep(forTimeInterval: 0.001)
            }
            throw CommandFailure("could not send: the send buffer stayed full")
        case .tcp(let connection):
            try waitForQueue(of: connection, below: 1 << 20)
            connection.send(bytes)
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
            Thread.sleep(forTimeInterval: 0.001)
        }
    }

    /// Sends what is still queued, then closes.
    /// - Throws: ``CommandFailure`` if the queue does not drain.
    func finish() throws(CommandFailure) {
        switch channel {
        case .udp(let client):
            client.close()
        case .tcp(let connection):
            defer { connection.close() }
            // The write queue lives on the loop: sync with it first so that the last send is queued.
            try waitForQueue(of: connection, below: 1)
        }
    }
}
