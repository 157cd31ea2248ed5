#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one wrapper every system call of this module goes through.
///
/// It retries `EINTR`, reports `EAGAIN`/`EWOULDBLOCK` as "would block" (`nil`) so that callers of
/// non-blocking sockets can stop reading, and turns any other failure into an ``OSCSystemError``
/// carrying `errno` and the call's name.
enum SystemCall {
    /// Runs `body` (a call that returns -1 and sets `errno` on failure) until it is not interrupted.
    /// - Returns: the call's result, or `nil` if it would block.
    @inline(__always)
    static func run<R: BinaryInteger>(_ name: StaticString, _ body: () -> R) throws(OSCSystemError) -> R? {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw OSCSystemError(call: name.description, errno: code)
            }
        }
    }

    /// Like ``run(_:_:)`` for calls that must not block or whose "would block" is an error too.
    @inline(__always)
    @discardableResult
    static func require<R: BinaryInteger>(_ name: StaticString, _ body: () -> R) throws(OSCSystemError) -> R {
        guard let result = try run(name, body) else { throw OSCSystemError(call: name.description, errno: EAGAIN) }
        return result
    }
}
