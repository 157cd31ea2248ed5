import Waveform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

extension WaveformCommand {
    func run() throws {
        let info: AudioFileInfo
        do {
            info = try AudioFileInfo(contentsOf: input)
        } catch {
            throw CommandFailure("\(error)")
        }
        let cleanup = TemporaryFileCleanup()
        let signals = cleanup.catchSignals()
        defer { withExtendedLifetime(signals) {} }
        let barCount = requestedBarCount
        var decoding = options
        decoding.zoom = try zoom(sampleRate: info.sampleRate, frameCountHint: info.frameCountHint, barCount: barCount)
        var progressBar = WaveformProgressBar(name: DecimalText.lastPathComponent(input))
        if format.isData {
            try writeData(options: decoding, progressBar: &progressBar, cleanup: cleanup)
            return
        }
        // Opened before decoding, so that a destination that cannot be written fails at once.
        let file = try openOutput(cleanup)
        let analysis: AudioAnalysis
        do {
            // Bars come from the bounded summary alone: the pairs are not kept.
            analysis = try AudioAnalysis(
                contentsOf: input, options: decoding, pairs: .discard, progress: { progressBar.update($0) })
            progressBar.finish()
        } catch {
            progressBar.finish()
            cleanup.finishing(file.temporaryPath) { file.cancel() }
            throw CommandFailure("\(error)")
        }
        let bytes: [UInt8]
        do {
            bytes = try render(analysis, barCount: barCount)
        } catch {
            cleanup.finishing(file.temporaryPath) { file.cancel() }
            throw error
        }
        do throws(WaveformWriteError) {
            let temporaryPath = file.temporaryPath
            try file.write(bytes)
            try cleanup.finishing(temporaryPath) { () throws(WaveformWriteError) in try file.finish() }
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// The file at --output, or standard output, written directly (see ``WaveformOutputFile``).
    private func openOutput(_ cleanup: TemporaryFileCleanup) throws(CommandFailure) -> WaveformOutputFile {
        guard let output else { return WaveformOutputFile(fileDescriptor: STDOUT_FILENO, name: "<stdout>") }
        do {
            return try cleanup.creating { () throws(WaveformWriteError) in
                let file = try WaveformOutputFile(path: output)
                return (file, file.temporaryPath)
            }
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// Streams the pairs into audiowaveform's file as they are made, so that memory does not grow
    /// with the input; standard output gets the whole file at the end, from a spool.
    private func writeData(
        options: WaveformOptions, progressBar: inout WaveformProgressBar, cleanup: TemporaryFileCleanup
    ) throws {
        let fileFormat: WaveformFileFormat = format == .dat ? .dat(version: nil) : .json
        let writer: WaveformFileWriter
        do {
            writer = try cleanup.creating { () throws(WaveformWriteError) in
                let writer =
                    if let output {
                        try WaveformFileWriter(path: output, format: fileFormat)
                    } else {
                        try WaveformFileWriter(fileDescriptor: STDOUT_FILENO, name: "<stdout>", format: fileFormat)
                    }
                return (writer, writer.temporaryPath)
            }
        } catch {
            throw CommandFailure("\(error)")
        }
        let temporaryPath = writer.temporaryPath
        do {
            // A failed write stops decoding at the next chunk; its error is the one to report. The
            // file holds the pairs alone: no summary for bars.
            _ = try AudioAnalysis(
                contentsOf: input, options: options, pairs: .stream(writer), summary: false,
                progress: { progressBar.update($0) }, isCancelled: { writer.failure != nil })
            progressBar.finish()
        } catch {
            progressBar.finish()
            cleanup.finishing(temporaryPath) { writer.cancel() }
            throw CommandFailure(writer.failure?.description ?? error.description)
        }
        do {
            try cleanup.finishing(temporaryPath) { () throws(WaveformWriteError) in try writer.finish() }
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// The bar count asked for by --bars or by the picture's width; `nil` when it comes from the
    /// zoom (one bar per pair) or when the output is data.
    private var requestedBarCount: Int? {
        guard !format.isData else { return nil }
        switch resolution {
        case .bars(let count): return count
        case .automatic: return style.fittingBarCount
        case .zoom, .pixelsPerSecond: return nil
        }
    }

    /// The zoom to decode at. Bars from a zoom of their own need buckets smaller than a bar, so
    /// that short files still give distinct bars: half a bar at most, 256 frames at most.
    private func zoom(sampleRate: Int, frameCountHint: Int?, barCount: Int?) throws(UsageError) -> Int {
        switch resolution {
        case .zoom(let zoom):
            return zoom
        case .pixelsPerSecond(let count):
            guard count <= sampleRate else {
                throw .invalidValue(
                    String(count), for: "--pixels-per-second <count>",
                    reason: "more than the sample rate, \(sampleRate) frames per second")
            }
            return sampleRate / count
        case .bars, .automatic:
            guard let barCount, let frames = frameCountHint, frames > 0 else { return 256 }
            return min(256, max(1, frames / (2 * barCount)))
        }
    }

    private func render(_ analysis: AudioAnalysis, barCount: Int?) throws -> [UInt8] {
        switch format {
        case .dat, .json:
            preconditionFailure("data is streamed by writeData")
        case .txt:
            let bars = try self.bars(analysis, barCount: barCount)
            let text = WaveformTextFormat.text(
                bars: bars, analysis: analysis, input: input, reduction: reduction, normalization: normalization)
            return Array(text.utf8)
        case .svg:
            let layout = WaveformLayout(values: try bars(analysis, barCount: barCount), style: style)
            return Array(WaveformSVGRenderer().render(layout, progress: progress).utf8)
        case .png:
            let layout = WaveformLayout(values: try bars(analysis, barCount: barCount), style: style)
            return try PNGEncoder.encode(WaveformRasterizer().render(layout, progress: progress))
        }
    }

    /// The bars asked for, or one per min/max pair when the zoom decides.
    private func bars(_ analysis: AudioAnalysis, barCount: Int?) throws -> [Float] {
        let count = barCount ?? max(1, analysis.waveformLength)
        guard count <= AmplitudeSummary.maximumBarCount else {
            throw CommandFailure(
                "the zoom gives \(count) bars, more than \(AmplitudeSummary.maximumBarCount);"
                    + " use a larger --zoom, fewer --pixels-per-second or --bars")
        }
        if format.isPicture && count > style.maximumBarCount {
            throw UsageError.other(
                "the zoom gives \(count) bars, more than fit in a picture \(style.width) pixels wide"
                    + " (\(style.maximumBarCount), one a pixel); use a larger --zoom, fewer --pixels-per-second"
                    + " or a larger --width")
        }
        return analysis.summary.bars(count: count, reduction: reduction, normalization: normalization)
    }
}
