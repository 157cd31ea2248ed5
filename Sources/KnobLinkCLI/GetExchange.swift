import Dispatch
import Locking
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
        let outcome = MainThreadWait.result { () async throws(OSCSystemError) -> OSCTCPConnection in
            try await OSCTCPClient.connect(
                to: target, framing: .lengthPrefix, loop: loop,
                onFrame: { bytes, _ in answer.receive(bytes) },
                onClose: { _, _ in answer.connectionClosed() })
        }
        switch outcome {
        case .success(let connection): return connection
        case .failure(let error): throw CommandFailure("could not connect to \(target): \(error)")
        }
    }

    /// Collects the answer on the loop's thread and hands it to the waiting caller.
    final class Answer: Sendable {
        /// Where the answer stands, changed by each message received (see ``next(after:to:)``).
        enum State: Equatable {
            /// No answer yet; `inUpdate` after a `/sys/update i 1` that no `/sys/update i 0` closed.
            case waiting(inUpdate: Bool)
            /// An `/info` too large for one datagram, sent as several messages between update
            /// brackets (rule 9.14): the parts so far, merged into one message.
            case collecting(OSCMessage)
            case answered(OSCMessage)
            case closed

            /// Whether the wait is over: an answer, or the connection closed.
            var isFinished: Bool {
                switch self {
                case .answered, .closed: true
                case .waiting, .collecting: false
                }
            }

            /// The fields before the value strings in `P/info`: name, unit, min, max, default,
            /// taper, flags. Each part repeats them.
            static let infoFixedCount = 7

            /// The state once `message` has arrived, for a get of `address`. Other messages (a
            /// subscription's values, the brackets around them) change nothing, except that a
            /// bracket opened before an `/info` means the `/info` comes in parts.
            func next(after message: OSCMessage, to address: String) -> State {
                let bracket: Bool? =
                    if message.address == "/sys/update", message.arguments.count == 1,
                        case .int32(let flag) = message.arguments[0]
                    {
                        flag != 0
                    } else {
                        nil
                    }
                switch self {
                case .waiting(let inUpdate):
                    if message.address == "/sys/error" { return .answered(message) }
                    if let bracket { return .waiting(inUpdate: bracket) }
                    guard message.address == address else { return self }
                    return inUpdate && address.hasSuffix("/info") ? .collecting(message) : .answered(message)
                case .collecting(var merged):
                    if bracket == false { return .answered(merged) }
                    guard message.address == address else { return self }
                    merged.arguments += message.arguments.dropFirst(Self.infoFixedCount)
                    return .collecting(merged)
                case .answered, .closed:
                    return self
                }
            }
        }

        let address: String
        private let state = Locked(State.waiting(inUpdate: false))
        private let done = DispatchSemaphore(value: 0)

        init(address: String) {
            self.address = address
        }

        /// Looks for the answer, or a part of it, in one packet.
        func receive(_ bytes: UnsafeRawBufferPointer) {
            guard let packet = try? OSCPacket.decode(bytes) else { return }
            let messages = Self.messages(in: packet)
            let isAnswered = state.withLock { state in
                guard !state.isFinished else { return false }
                for message in messages { state = state.next(after: message, to: address) }
                return state.isFinished
            }
            if isAnswered { done.signal() }
        }

        func connectionClosed() {
            let isFirst = state.withLock { state in
                guard !state.isFinished else { return false }
                state = .closed
                return true
            }
            if isFirst { done.signal() }
        }

        /// The messages of `packet` in order, those of bundles included.
        static func messages(in packet: OSCPacket) -> [OSCMessage] {
            switch packet {
            case .message(let message): [message]
            case .bundle(let bundle): bundle.elements.flatMap(messages(in:))
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
                throw CommandFailure("no answer from \(url) within \(Self.seconds(timeout)) s")
            case .collecting:
                throw CommandFailure("the answer from \(url) was not complete within \(Self.seconds(timeout)) s")
            }
        }

        private static func seconds(_ timeout: Double) -> String {
            timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)
        }
    }
}
