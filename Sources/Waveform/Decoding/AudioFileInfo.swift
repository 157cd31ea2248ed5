/// What an audio file's header says about it.
public struct AudioFileInfo: Sendable, Equatable {
    /// The path the file was opened with.
    public var path: String
    /// The sample rate, in frames per second.
    public var sampleRate: Int
    /// The number of channels.
    public var channels: Int
    /// The header's frame count; it can be wrong (MP3 estimates it), so decoding never relies on it.
    public var frameCountHint: Int?
    /// The container or codec: "WAV", "AIFF", "CAF", "FLAC", "Ogg Vorbis", "Opus", "MP3", …
    public var formatName: String

    /// Creates file information from its parts.
    public init(path: String, sampleRate: Int, channels: Int, frameCountHint: Int?, formatName: String) {
        self.path = path
        self.sampleRate = sampleRate
        self.channels = channels
        self.frameCountHint = frameCountHint
        self.formatName = formatName
    }

    /// Reads the header of the file at `path` without decoding its audio.
    ///
    /// - Throws: ``AudioDecodingError`` when the file is missing, unreadable or not audio.
    public init(contentsOf path: String) throws(AudioDecodingError) {
        self = try SoundFile(path: path).info
    }
}
