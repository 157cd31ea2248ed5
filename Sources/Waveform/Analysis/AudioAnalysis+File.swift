import CSndFile

extension AudioAnalysis {
    /// Interleaved samples read per chunk: 64 KB of 16-bit audio whatever the channel count. It
    /// stays in the second-level cache between libsndfile writing it and the analysis reading it;
    /// 32 KB chunks cost more in system calls (3.0× the C loop instead of 3.2×), 256 KB ones in
    /// cache misses (2.9×).
    static let chunkSamples = 32_768
    /// Chunks between two progress reports.
    static let chunksPerReport = 16

    /// Decodes the audio file at `path` in one streaming pass and analyses it.
    ///
    /// libsndfile reads the file in fixed-size chunks until it has no more frames; the header's
    /// frame count only serves for ``WaveformProgress/fraction`` and to tell a truncated file
    /// (in formats where it is exact). Memory does not grow with the file beyond the min/max data,
    /// and not at all when `pairs` discards or streams them.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - options: zoom, bits and channel handling of the min/max data.
    ///   - pairs: what happens to the min/max pairs: kept in ``waveform`` (the default),
    ///     discarded, or streamed to a sink (``WaveformPairHandling``).
    ///   - summary: `false` when only the pairs are wanted (a `.dat` or `.json` file): ``summary``
    ///     stays empty, and the analysis does less (``AudioAnalyzer/summarizes``).
    ///   - progress: called on the decoding thread every few chunks and once at the end.
    ///   - isCancelled: polled between chunks; when it returns `true` decoding stops.
    ///   - regularFileOnly: refuse, without waiting, anything but a regular file (a FIFO would
    ///     otherwise block the open until some writer opens it); a server reading files named by
    ///     its peers sets it.
    /// - Throws: ``AudioDecodingError`` naming the file and the reason, ``AudioDecodingError/Reason/cancelled``
    ///   when `isCancelled` said so.
    public init(
        contentsOf path: String, options: WaveformOptions = .init(), pairs: WaveformPairHandling = .keep,
        summary: Bool = true, progress: (WaveformProgress) -> Void = { _ in }, isCancelled: () -> Bool = { false },
        regularFileOnly: Bool = false
    ) throws(AudioDecodingError) {
        try self.init(
            contentsOf: path, options: options, pairs: pairs, summary: summary, progress: progress,
            isCancelled: isCancelled, regularFileOnly: regularFileOnly, readsInPlace: true)
    }

    /// ``init(contentsOf:options:pairs:summary:progress:isCancelled:regularFileOnly:)``, reading
    /// 16-bit WAV in place from a mapping (``PCMWindows``) only when `readsInPlace` is set; the
    /// tests compare the two.
    init(
        contentsOf path: String, options: WaveformOptions = .init(), pairs: WaveformPairHandling = .keep,
        summary: Bool = true, progress: (WaveformProgress) -> Void = { _ in }, isCancelled: () -> Bool = { false },
        regularFileOnly: Bool = false, readsInPlace: Bool
    ) throws(AudioDecodingError) {
        try Self.check(options, name: path)
        let file = regularFileOnly ? try SoundFile(regularFile: path) : try SoundFile(path: path)
        try self.init(
            decoding: file, options: options, pairs: pairs, summary: summary, progress: progress,
            isCancelled: isCancelled, readsInPlace: readsInPlace)
    }

    /// Decodes audio file bytes held in memory (any format the file entry point reads) and analyses them.
    ///
    /// - Parameters:
    ///   - audioBytes: the whole file; it must stay valid during the call.
    ///   - name: what errors and ``fileInfo`` call the bytes, in place of a path.
    ///   - options: zoom, bits and channel handling of the min/max data.
    ///   - pairs: what happens to the min/max pairs (``WaveformPairHandling``).
    ///   - summary: `false` for the pairs alone; ``summary`` stays empty.
    ///   - progress: called every few chunks and once at the end.
    ///   - isCancelled: polled between chunks.
    /// - Throws: ``AudioDecodingError`` naming `name` and the reason.
    public init(
        audioBytes: UnsafeRawBufferPointer, name: String = "<memory>", options: WaveformOptions = .init(),
        pairs: WaveformPairHandling = .keep, summary: Bool = true, progress: (WaveformProgress) -> Void = { _ in },
        isCancelled: () -> Bool = { false }
    ) throws(AudioDecodingError) {
        try Self.check(options, name: name)
        try self.init(
            decoding: try SoundFile(bytes: audioBytes, name: name), options: options, pairs: pairs,
            summary: summary, progress: progress, isCancelled: isCancelled, readsInPlace: false)
    }

    /// Refuses `options` the analyzer would trap on, before the file named `name` is opened.
    private static func check(_ options: WaveformOptions, name: String) throws(AudioDecodingError) {
        guard options.isValid else {
            throw AudioDecodingError(
                path: name,
                reason: .invalidOptions(detail: "zoom \(options.zoom) and bits \(options.bits): zoom ≥ 1, bits 8 or 16")
            )
        }
    }

    private init(
        decoding file: SoundFile, options: WaveformOptions, pairs: WaveformPairHandling, summary: Bool,
        progress: (WaveformProgress) -> Void, isCancelled: () -> Bool, readsInPlace: Bool
    ) throws(AudioDecodingError) {
        let info = file.info
        let path = info.path
        var analyzer = AudioAnalyzer(
            sampleRate: info.sampleRate, channels: info.channels, options: options, pairs: pairs, summary: summary)
        let chunkFrames = max(1, Self.chunkSamples / info.channels)
        let hint = info.frameCountHint
        // The header's count is exact in most formats and close in the others; a wrong one only
        // costs a reallocation, and a hostile one reserves no more than 2^28 frames' pairs (4 MB).
        if let hint { analyzer.reserve(frames: min(hint, 1 << 28)) }
        if summary { analyzer.summary.reserveCapacity() }
        func report(final: Bool) {
            let frames = analyzer.frameCount
            var fraction: Double?
            if final {
                fraction = 1
            } else if let hint, frames >= hint {
                // The final report says so; an estimate that falls short waits for it too.
                return
            } else if let hint, hint > 0 {
                fraction = min(1, Double(frames) / Double(hint))
            }
            progress(WaveformProgress(frames: frames, fraction: fraction))
        }
        var chunks = 0
        if file.sampleKind != .integer {
            let rounding = file.sampleKind == .decodedFloat
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: chunkFrames * info.channels)
            defer { buffer.deallocate() }
            while true {
                if isCancelled() { throw AudioDecodingError(path: path, reason: .cancelled) }
                let read = Int(file.api.readf_float(file.handle, buffer.baseAddress, sf_count_t(chunkFrames)))
                guard read > 0 else { break }
                analyzer.consume(
                    interleavedFloat: UnsafeBufferPointer(rebasing: buffer[0..<read * info.channels]),
                    rounding: rounding)
                chunks += 1
                if chunks % Self.chunksPerReport == 0 { report(final: false) }
            }
        } else {
            let buffer = UnsafeMutableBufferPointer<Int16>.allocate(capacity: chunkFrames * info.channels)
            defer { buffer.deallocate() }
            // After the first chunk, read in place from the page cache where the format allows.
            var windows = readsInPlace ? PCMWindows(file) : nil
            reading: while true {
                if isCancelled() { throw AudioDecodingError(path: path, reason: .cancelled) }
                let read = Int(file.api.readf_short(file.handle, buffer.baseAddress, sf_count_t(chunkFrames)))
                guard read > 0 else { break }
                let samples = UnsafeBufferPointer(rebasing: buffer[0..<read * info.channels])
                analyzer.consume(interleaved: samples)
                chunks += 1
                if chunks % Self.chunksPerReport == 0 { report(final: false) }
                guard let mapped = windows else { continue }
                windows = nil
                guard mapped.matches(samples) else { continue }
                // Reported and polled as often as through libsndfile: every `chunksPerReport` chunks.
                let slice = chunkFrames * Self.chunksPerReport * info.channels
                let end = try mapped.read(from: analyzer.frameCount) { samples throws(AudioDecodingError) in
                    var start = 0
                    while start < samples.count {
                        if isCancelled() { throw AudioDecodingError(path: path, reason: .cancelled) }
                        let end = min(samples.count, start + slice)
                        analyzer.consume(interleaved: UnsafeBufferPointer(rebasing: samples[start..<end]))
                        report(final: false)
                        start = end
                    }
                }
                switch end {
                case .lost(let frame):
                    throw AudioDecodingError(
                        path: path, reason: .truncated(expectedFrames: mapped.frames, decodedFrames: frame))
                case .read(let frame):
                    if frame == mapped.frames { break reading }
                    // A window could not be mapped: libsndfile reads on from there.
                    guard file.api.seek(file.handle, sf_count_t(frame), SEEK_SET) == sf_count_t(frame) else {
                        throw AudioDecodingError(
                            path: path,
                            reason: .readFailed(detail: "could not seek to frame \(frame)", decodedFrames: frame))
                    }
                }
            }
        }
        if let error = file.error {
            throw AudioDecodingError(
                path: path, reason: .readFailed(detail: error.message, decodedFrames: analyzer.frameCount))
        }
        let expected = file.declaredFrames ?? (file.frameCountIsExact ? hint : nil)
        if let expected, analyzer.frameCount < expected {
            throw AudioDecodingError(
                path: path, reason: .truncated(expectedFrames: expected, decodedFrames: analyzer.frameCount))
        }
        report(final: true)
        self = analyzer.finishInPlace()
        fileInfo = info
    }
}
