import CSndFile
import Foundation

/// Audio files written by libsndfile itself into a temporary directory, for the decoding tests.
enum TestAudio {
    /// The formats the decoding tests write, with their libsndfile format codes.
    enum Format: String, CaseIterable, Sendable {
        case wav, aiff, caf, flac, vorbis, opus, mp3

        var code: Int32 {
            switch self {
            case .wav: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
            case .aiff: Int32(SF_FORMAT_AIFF | SF_FORMAT_PCM_16)
            case .caf: Int32(SF_FORMAT_CAF | SF_FORMAT_PCM_16)
            case .flac: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
            case .vorbis: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
            case .opus: Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS)
            case .mp3: Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)
            }
        }

        var fileExtension: String {
            switch self {
            case .wav: "wav"
            case .aiff: "aiff"
            case .caf: "caf"
            case .flac: "flac"
            case .vorbis: "ogg"
            case .opus: "opus"
            case .mp3: "mp3"
            }
        }

        /// The name ``AudioFileInfo/formatName`` gives.
        var formatName: String {
            switch self {
            case .wav: "WAV"
            case .aiff: "AIFF"
            case .caf: "CAF"
            case .flac: "FLAC"
            case .vorbis: "Ogg Vorbis"
            case .opus: "Opus"
            case .mp3: "MP3"
            }
        }

        /// Lossless formats give back exactly the samples written.
        var isLossless: Bool { self == .wav || self == .aiff || self == .caf || self == .flac }

        /// Whether this libsndfile can write the format (`sf_format_check`).
        func isWritable(sampleRate: Int, channels: Int) -> Bool {
            var info = SF_INFO()
            info.samplerate = Int32(sampleRate)
            info.channels = Int32(channels)
            info.format = code
            return sf_format_check(&info) == SF_TRUE
        }
    }

    /// A fresh temporary directory, removed by the caller.
    static func makeDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("waveform-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    struct WriteError: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes interleaved 16-bit samples with libsndfile.
    static func write(
        _ samples: [Int16], to path: String, format: Int32, sampleRate: Int, channels: Int
    ) throws {
        let file = try create(path, format: format, sampleRate: sampleRate, channels: channels)
        defer { sf_close(file) }
        // libsndfile 1.2.0's MP3 encoder writes 16-bit input at four times its level (libmpg123
        // reads the same peaks back); floats come out at the level they went in.
        let written =
            Int(format) & Int(SF_FORMAT_TYPEMASK) == Int(SF_FORMAT_MPEG)
            ? samples.map { Float($0) / 32767 }.withUnsafeBufferPointer {
                sf_write_float(file, $0.baseAddress, sf_count_t($0.count))
            }
            : samples.withUnsafeBufferPointer { sf_write_short(file, $0.baseAddress, sf_count_t($0.count)) }
        guard written == samples.count else { throw WriteError(description: "wrote \(written) of \(samples.count)") }
    }

    /// Writes interleaved float samples with libsndfile (a 32-bit float WAV unless `format` says otherwise).
    static func writeFloat(
        _ samples: [Float], to path: String, sampleRate: Int, channels: Int,
        format: Int32 = Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT)
    ) throws {
        let file = try create(path, format: format, sampleRate: sampleRate, channels: channels)
        defer { sf_close(file) }
        let written = samples.withUnsafeBufferPointer { sf_write_float(file, $0.baseAddress, sf_count_t($0.count)) }
        guard written == samples.count else { throw WriteError(description: "wrote \(written) of \(samples.count)") }
    }

    /// Opens `path` for writing with libsndfile; the caller closes it.
    private static func create(_ path: String, format: Int32, sampleRate: Int, channels: Int) throws -> OpaquePointer {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = format
        guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw WriteError(description: "sf_open \(path): \(String(cString: sf_strerror(nil)))")
        }
        return file
    }

    /// A sine of `frequency` Hz at `amplitude` (of full scale) on every channel, channel `c`
    /// scaled by `1 / (c + 1)` so that channels differ.
    static func sine(frames: Int, channels: Int, sampleRate: Int, frequency: Double = 440, amplitude: Double = 0.5)
        -> [Int16]
    {
        var samples = [Int16](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            let value = sin(2 * Double.pi * frequency * Double(frame) / Double(sampleRate)) * amplitude * 32767
            for channel in 0..<channels {
                samples[frame * channels + channel] = Int16((value / Double(channel + 1)).rounded())
            }
        }
        return samples
    }

    /// Every frame of a file through a plain `sf_readf_short` loop.
    static func readShorts(_ path: String) throws -> [Int16] {
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            throw WriteError(description: "sf_open \(path): \(String(cString: sf_strerror(nil)))")
        }
        defer { sf_close(file) }
        var samples: [Int16] = []
        var chunk = [Int16](repeating: 0, count: 4096 * Int(info.channels))
        while true {
            let read = chunk.withUnsafeMutableBufferPointer { Int(sf_readf_short(file, $0.baseAddress, 4096)) }
            guard read > 0 else { break }
            samples += chunk[0..<(read * Int(info.channels))]
        }
        return samples
    }
}
