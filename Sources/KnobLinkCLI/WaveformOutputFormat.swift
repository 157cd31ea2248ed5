/// What `knoblink waveform` writes: audiowaveform's data formats, a picture, or text.
enum WaveformOutputFormat: String, Sendable, CaseIterable {
    case json
    case dat
    case svg
    case png
    case txt

    /// The format named by a file's extension, case-insensitively, or `nil`.
    init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }

    /// Whether the output is audiowaveform's min/max data rather than bars.
    var isData: Bool { self == .json || self == .dat }

    /// Whether the output is a picture.
    var isPicture: Bool { self == .svg || self == .png }
}
