import Dispatch

extension AudioAnalysis {
    /// Decodes and analyses the audio file at `path` off the caller's thread, reporting progress.
    ///
    /// The synchronous ``init(contentsOf:options:pairs:summary:progress:isCancelled:regularFileOnly:)``
    /// runs on a Dispatch queue, so that a long decode does not hold one of Swift's cooperative
    /// threads; the pairs are kept (``WaveformPairHandling/keep``). Cancelling the calling task stops decoding at the
    /// next chunk.
    ///
    /// ```swift
    /// let (updates, continuation) = AsyncStream.makeStream(of: WaveformProgress.self)
    /// async let analysis = AudioAnalysis.analyze(contentsOf: path, progress: continuation)
    /// for await update in updates { print(update.frames) }
    /// let bars = try await analysis.summary.bars(count: 80)
    /// ```
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - options: zoom, bits and channel handling of the min/max data.
    ///   - progress: receives every progress report; it is finished when decoding ends, however it ends.
    /// - Throws: ``AudioDecodingError``; ``AudioDecodingError/Reason/cancelled`` when the task was cancelled.
    public static func analyze(
        contentsOf path: String, options: WaveformOptions = .init(),
        progress: AsyncStream<WaveformProgress>.Continuation? = nil
    ) async throws(AudioDecodingError) -> AudioAnalysis {
        defer { progress?.finish() }
        let cancelled = CancellationFlag()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<AudioAnalysis, AudioDecodingError>, Never>) in
                DispatchQueue.global(qos: .userInitiated).async {
                    let result = Result { () throws(AudioDecodingError) in
                        try AudioAnalysis(
                            contentsOf: path, options: options, progress: { progress?.yield($0) },
                            isCancelled: { cancelled.isSet })
                    }
                    continuation.resume(returning: result)
                }
            }
        } onCancel: {
            cancelled.set()
        }
        return try result.get()
    }

    /// Starts decoding the file at `path` and returns its progress as a stream and the analysis
    /// as a task; cancelling the task stops decoding.
    ///
    /// - Returns: the stream of progress, finished when decoding ends, and the task whose value
    ///   is the analysis or throws ``AudioDecodingError``.
    public static func analysisWithProgress(
        contentsOf path: String, options: WaveformOptions = .init()
    ) -> (progress: AsyncStream<WaveformProgress>, analysis: Task<AudioAnalysis, any Error>) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: WaveformProgress.self, bufferingPolicy: .bufferingNewest(64))
        let task = Task {
            try await analyze(contentsOf: path, options: options, progress: continuation)
        }
        return (stream, task)
    }
}
