extension AudioDecodingError {
    /// What went wrong, with libsndfile's own words where it gave some.
    public enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// No file at the path.
        case notFound
        /// The file exists but cannot be read (`detail`: the system's reason).
        case notReadable(detail: String)
        /// The file holds no bytes at all.
        case empty
        /// libsndfile recognises no audio format in the file.
        case notAudio(detail: String)
        /// The container is known but its encoding is not supported here.
        case unsupported(detail: String)
        /// The header is inconsistent or damaged.
        case malformed(detail: String)
        /// The audio ends before the header says it does: `decodedFrames` of `expectedFrames`.
        case truncated(expectedFrames: Int, decodedFrames: Int)
        /// Decoding failed part way, after `decodedFrames` frames.
        case readFailed(detail: String, decodedFrames: Int)
        /// The options cannot be used (a zoom below 1, bits other than 8 or 16).
        case invalidOptions(detail: String)
        /// The caller cancelled decoding.
        case cancelled
        /// libsndfile, the decoder, cannot be loaded on this machine (`detail`: why, and what to install).
        case decoderUnavailable(detail: String)

        /// The reason in words.
        public var description: String {
            switch self {
            case .notFound: "no such file"
            case .notReadable(let detail): "cannot read the file (\(detail))"
            case .empty: "the file is empty"
            case .notAudio(let detail): "not an audio file (\(detail))"
            case .unsupported(let detail): "unsupported audio encoding (\(detail))"
            case .malformed(let detail): "malformed audio file (\(detail))"
            case .truncated(let expected, let decoded):
                "truncated: the header promises \(expected) frames, the file holds \(decoded)"
            case .readFailed(let detail, let decoded): "decoding failed after \(decoded) frames (\(detail))"
            case .invalidOptions(let detail): "invalid options (\(detail))"
            case .cancelled: "cancelled"
            case .decoderUnavailable(let detail): "no audio decoder (\(detail))"
            }
        }
    }
}
