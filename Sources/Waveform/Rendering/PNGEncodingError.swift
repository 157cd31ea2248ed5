/// zlib could not compress a picture (it fails only when memory runs out).
public struct PNGEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// zlib's status code (`Z_MEM_ERROR` is -4, `Z_BUF_ERROR` -5).
    public var zlibStatus: Int

    /// Creates the error.
    public init(zlibStatus: Int) {
        self.zlibStatus = zlibStatus
    }

    /// The reason in words.
    public var description: String {
        "cannot encode the PNG: zlib failed with status \(zlibStatus)"
    }
}
