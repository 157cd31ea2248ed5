#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system call failed: which call, and the `errno` it left.
public struct OSCSystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name of the call, such as `"bind"` or `"recvmmsg"`.
    public var call: String
    /// The `errno` value.
    public var errno: Int32

    /// Creates an error.
    /// - Parameters:
    ///   - call: the name of the failed call.
    ///   - errno: the `errno` value it left.
    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// `"bind: Address already in use (errno 98)"`.
    public var description: String {
        "\(call): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
