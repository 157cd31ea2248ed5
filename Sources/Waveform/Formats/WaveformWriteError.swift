#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A min/max data file that could not be written: which file, which system call, and its errno.
public struct WaveformWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The destination, as the writer was given it.
    public var path: String
    /// The system call that failed (`open`, `write`, `rename`, …).
    public var call: String
    /// The `errno` it left.
    public var code: Int32

    /// Creates an error from its parts.
    public init(path: String, call: String, code: Int32) {
        self.path = path
        self.call = call
        self.code = code
    }

    /// `cannot write 'out.dat': No space left on device (write)`.
    public var description: String {
        "cannot write '\(path)': \(String(cString: strerror(code))) (\(call))"
    }
}
