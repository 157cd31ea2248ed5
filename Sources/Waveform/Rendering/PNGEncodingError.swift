/// Why a picture could not be encoded as PNG.
public enum PNGEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// PNG has no picture without pixels: the width or the height is 0.
    case emptyPicture(width: Int, height: Int)
    /// zlib failed with this status (only when memory runs out: `Z_MEM_ERROR` is -4,
    /// `Z_BUF_ERROR` -5).
    case zlibFailed(status: Int)

    /// The reason in words.
    public var description: String {
        switch self {
        case .emptyPicture(let width, let height): "cannot encode a \(width)×\(height) picture as PNG"
        case .zlibFailed(let status): "cannot encode the PNG: zlib failed with status \(status)"
        }
    }
}
