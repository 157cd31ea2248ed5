import Dispatch
import Foundation
import OSCCore
import OSCTransport
import Synchronization

/// One request and its answer for `knoblink get`: sends `ADDRESS/get` and waits for the message
/// that answers it.
///
/// Over UDP the request carries a reply URL, because the server would otherwise answer the
/// sender's IP at its feedback port (9000 by default), where nothing of this command listens. Over
/// TCP the server answers on the connection, so the request has no argument.
enum GetExchange {
    /// Sends the request and returns the answer: the first message at `address`, or the first
    /// `/sys/error`.
    /// - Parameters:
    ///   - url: the server.
    ///   - address: the parameter's address.
    ///   - timeout: how long to wait for the answer, in seconds.
    /// - Throws: ``CommandFailure`` when the host does not resolve, the connection fails or
    ///   closes, or no answer comes within `timeout`.
    static func ask(_ url: OSCURL, address: String, timeout: Double) throws(CommandFailure) -> OSCMessage {
        let target = try resolve(url)
        let answer = Answer(address: address)
        let loop = OSCEventLoop(label: "knoblink.get")
        switch url.transport {
        case .udp:
            let socket = try bindReplySocket(for: target, loop: loop)
            defer { socket.close() }
            socket.start { bytes, _ in answer.receive(bytes) }
            let replyURL = OSCURL(transport: .udp, host: try replyHost(for: target), port: socket.localAddress.port)
            let request = OSCMessage(address + "/get", [.string(replyURL.description)])
            let sent: Bool
            do {
                sent = try socket.send(request.encoded(), to: target)
            } catch {
                throw CommandFailure("could not send to \(url): \(error)")
            }
            guard sent else { throw CommandFailure("could not send to \(url): the send buffer is full") }
            return try answer.wait(timeout: timeout, from: url)
        case .tcp:
            let connection = try connect(to: target, loop: loop, answer: answer)
            defer { connection.close() }
            connection.send(OSCMessage(address + "/get").encoded())
            return try answer.wait(timeout: timeout, from: url)
        }
    }

    private static func resolve(_ url: OSCURL) throws(CommandFailure) -> OSCSocketAddress {
        let addresses: [OSCSocketAddress]
        do {
            addresses = try url.resolve()
        } catch {
            guard case .unresolvedHost(let host, let reason) = error else { throw CommandFailure("\(error)") }
            throw CommandFailure("could not resolve '\(host)': \(reason)")
        }
        guard let first = addresses.first else { throw CommandFailure("could not resolve '\(url.host)'") }
        return first
    }

    /// A socket on port 0 of every interface of the target's family, so that the answer is
    /// received whichever local address the server's reply leaves for.
    private static func bindReplySocket(for target: OSCSocketAddress, loop: OSCEventLoop) throws(CommandFailure)
        -> OSCUDPServer
    {
        do {
            return try OSCUDPServer(host: target.family == .ipv4 ? "0.0.0.0" : "::", port: 0, loop: loop)
        } catch {
            throw CommandFailure("could not open a UDP socket: \(error)")
        }
    }

    /// The host of the reply URL: the loopback address for a loopback target, else the local
    /// address that the kernel picks for the route to the target (found by connecting a UDP
    /// socket, which sends nothing).
    static func replyHost(for target: OSCSocketAddress) throws(CommandFailure) -> String {
        if target.isLoopback { return target.family == .ipv4 ? "127.0.0.1" : "::1" }
        do {
            let probe = try OSCUDPClient(remote: target, loop: OSCEventLoop(label: "knoblink.get.route"))
            defer { probe.close() }
            return probe.localAddress.host
        } catch {
            throw CommandFailure("no route to \(target): \(error)")
        }
    }

    private static func connect(to target: OSCSocketAddress, loop: OSCEventLoop, answer: Answer)
        throws(CommandFailure) -> OSCTCPConnection
    {
        let outcome = Mutex<Result<OSCTCPConnection, OSCSystemError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        // The caller is the main thread, not one of the concurrency pool's, so waiting here for
        // the connection blocks nothing that the connection needs.
        Task {
            let result: Result<OSCTCPConnection, OSCSystemError>
            do throws(OSCSystemError) {
                result = .success(
                    try await OSCTCPClient.connect(
                        to: target, framing: .lengthPrefix, loop: loop,
                        onFrame: { bytes, _ in answer.receive(bytes) },
                        onClose: { _, _ in answer.connectionClosed() }))
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        switch outcome.withLock({ $0 })! {
        case .success(let connection): return connection
        case .failure(let error): throw CommandFailure("could not connect to \(target): \(error)")
        }
    }

    /// Collects the answer on the loop's thread and hands it to the waiting caller.
    final class Answer: Sendable {
        private enum State {
            case waiting
            case answered(OSCMessage)
            case closed
        }

        let address: String
        private let state = Mutex(State.waiting)
        private let done = DispatchSemaphore(value: 0)

        init(address: String) {
            self.address = address
        }

        /// Looks for the answer in one packet; other messages (a subscription's values, the
        /// `/sys/update` brackets around them) are skipped.
        func receive(_ bytes: UnsafeRawBufferPointer) {
            guard let packet = try? OSCPacket.decode(bytes), let message = Self.answer(in: packet, to: address) else {
                return
            }
            let isFirst = state.withLock { state in
                guard case .waiting = state else { return false }
                state = .answered(message)
                return true
            }
            if isFirst { done.signal() }
        }

        func connectionClosed() {
            let isFirst = state.withLock { state in
                guard case .waiting = state else { return false }
                state = .closed
                return true
            }
            if isFirst { done.signal() }
        }

        /// The first message of `packet`, bundles included, that answers a get of `address`.
        static func answer(in packet: OSCPacket, to address: String) -> OSCMessage? {
            switch packet {
            case .message(let message):
                return message.address == address || message.address == "/sys/error" ? message : nil
            case .bundle(let bundle):
                for element in bundle.elements {
                    if let message = answer(in: element, to: address) { return message }
                }
                return nil
            }
        }

        func wait(timeout: Double, from url: OSCURL) throws(CommandFailure) -> OSCMessage {
            _ = done.wait(timeout: .now() + .nanoseconds(Int(min(timeout, 1e6) * 1e9)))
            switch state.withLock({ $0 }) {
            case .answered(let message):
                return message
            case .closed:
                throw CommandFailure("\(url) closed the connection without answering")
            case .waiting:
                let shown = timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)
                throw CommandFailure("no answer from \(url) within \(shown) s")
            }
        }
    }
}
