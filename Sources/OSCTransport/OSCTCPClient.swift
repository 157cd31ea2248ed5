import Dispatch
import OSCCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens OSC stream connections to TCP servers.
public enum OSCTCPClient {
    /// Connects to a TCP server, without blocking any thread, and starts reading frames.
    ///
    /// - Parameters:
    ///   - remote: the server.
    ///   - framing: the framing to speak (OSC 1.1 SLIP by default).
    ///   - options: frame limit and write-queue bound.
    ///   - loop: the event loop; a new one by default.
    ///   - timeout: how long to wait for the server to accept (10 s by default).
    ///   - onFrame: gets each frame from the server (valid only during the call); runs on the loop.
    ///   - onClose: told when the connection closes, and why.
    /// - Returns: the open connection.
    /// - Throws: ``OSCSystemError``, for instance `ECONNREFUSED`, or `ETIMEDOUT` after `timeout`.
    public static func connect(
        to remote: OSCSocketAddress, framing: OSCFraming = .slip, options: OSCTCPOptions = OSCTCPOptions(),
        loop: OSCEventLoop = OSCEventLoop(), timeout: Duration = .seconds(10),
        onFrame: @escaping @Sendable (UnsafeRawBufferPointer, OSCTCPConnection) -> Void,
        onClose: (@Sendable (OSCTCPConnection, OSCTCPCloseReason) -> Void)? = nil
    ) async throws(OSCSystemError) -> OSCTCPConnection {
        let (fd, local) = try await establish(to: remote, options: options, loop: loop, timeout: timeout)
        let connection = OSCTCPConnection(
            fd: fd, remote: remote, local: local, framing: framing, options: options, loop: loop,
            handlers: .init(frame: onFrame, otherProtocol: nil, closed: onClose), detach: nil)
        loop.execute { connection.start() }
        return connection
    }

    /// Connects to a TCP server that speaks another protocol than OSC (an HTTP server), without
    /// blocking any thread, and hands over the bytes as they come.
    ///
    /// ``OSCTCPConnection/write(_:)`` sends bytes as they are; ``OSCTCPOptions/maximumQueuedBytes``
    /// still bounds what waits to be written.
    /// - Parameters:
    ///   - remote: the server.
    ///   - options: the write-queue bound and the read size.
    ///   - loop: the event loop; a new one by default.
    ///   - timeout: how long to wait for the server to accept (10 s by default).
    ///   - onBytes: gets each chunk read (valid only during the call); runs on the loop.
    ///   - onClose: told when the connection closes, and why.
    /// - Returns: the open connection.
    /// - Throws: ``OSCSystemError``, for instance `ECONNREFUSED`, or `ETIMEDOUT` after `timeout`.
    public static func connectRaw(
        to remote: OSCSocketAddress, options: OSCTCPOptions = OSCTCPOptions(), loop: OSCEventLoop = OSCEventLoop(),
        timeout: Duration = .seconds(10), onBytes: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
        onClose: (@Sendable (OSCTCPConnection, OSCTCPCloseReason) -> Void)? = nil
    ) async throws(OSCSystemError) -> OSCTCPConnection {
        let (fd, local) = try await establish(to: remote, options: options, loop: loop, timeout: timeout)
        let connection = OSCTCPConnection(
            fd: fd, remote: remote, local: local, framing: nil, options: options, loop: loop,
            handlers: .init(frame: { _, _ in }, otherProtocol: nil, closed: onClose), detach: nil, raw: onBytes)
        loop.execute { connection.start() }
        return connection
    }

    /// Opens a socket and connects it: the descriptor, configured, and its local address.
    private static func establish(
        to remote: OSCSocketAddress, options: OSCTCPOptions, loop: OSCEventLoop, timeout: Duration
    ) async throws(OSCSystemError) -> (Int32, OSCSocketAddress) {
        let fd = try Socket.make(family: remote.family, type: Socket.streamType)
        let outcome: Result<Void, OSCSystemError> = await withCheckedContinuation { continuation in
            loop.execute {
                let result = remote.withSockAddr { pointer, length in
                    #if canImport(Glibc)
                        Glibc.connect(fd, pointer, length)
                    #else
                        Darwin.connect(fd, pointer, length)
                    #endif
                }
                if result == 0 { return continuation.resume(returning: .success(())) }
                let code = errno
                guard code == EINPROGRESS || code == EINTR else {
                    return continuation.resume(
                        returning: .failure(OSCSystemError(call: "connect(\(remote))", errno: code)))
                }
                // The connection completes when the socket becomes writable; SO_ERROR tells how.
                // The outcome is reported from the cancel handler, once dispatch no longer watches
                // the descriptor, so that it is never closed (or watched again) under a live source.
                let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: loop.queue)
                let outcome = OutcomeBox()
                source.setEventHandler {
                    guard !outcome.decided else { return }
                    outcome.decided = true
                    let error = Socket.intOption(fd, SOL_SOCKET, SO_ERROR)
                    outcome.result =
                        error == 0 ? .success(()) : .failure(OSCSystemError(call: "connect(\(remote))", errno: error))
                    source.cancel()
                }
                source.setCancelHandler {
                    outcome.source = nil
                    continuation.resume(returning: outcome.result)
                }
                outcome.source = source
                source.resume()
                let (seconds, attoseconds) = timeout.components
                let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
                loop.schedule(at: .now() + .nanoseconds(nanoseconds)) {
                    guard !outcome.decided else { return }
                    outcome.decided = true
                    outcome.result = .failure(OSCSystemError(call: "connect(\(remote))", errno: ETIMEDOUT))
                    outcome.source?.cancel()
                }
            }
        }
        do throws(OSCSystemError) {
            try outcome.get()
            let local = try Socket.localAddress(fd)
            OSCTCPServer.configure(fd, options: options)
            return (fd, local)
        } catch {
            // Any connect source is gone by now (the outcome comes from its cancel handler).
            Socket.closeDescriptor(fd)
            throw error
        }
    }

    /// The outcome of a non-blocking connect, handed from the source's event handler to its
    /// cancel handler; both run on the loop.
    private final class OutcomeBox: @unchecked Sendable {
        var decided = false
        var source: DispatchSourceWrite?
        var result: Result<Void, OSCSystemError> = .failure(OSCSystemError(call: "connect", errno: ECANCELED))
    }
}
