import Foundation
import Testing
import Waveform

@Suite struct AsyncAnalysisTests {
    /// A mono WAV of 1 500 000 frames: enough chunks for several progress reports.
    static func longFile(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("long.wav").path
        let samples = TestAudio.sine(frames: 1_500_000, channels: 1, sampleRate: 48_000)
        try TestAudio.write(samples, to: path, format: TestAudio.Format.wav.code, sampleRate: 48_000, channels: 1)
        return path
    }

    @Test func progressStreamEndsAtTheWholeFile() async throws {
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.longFile(in: directory)
        let (updates, task) = AudioAnalysis.analysisWithProgress(contentsOf: path)
        var seen: [WaveformProgress] = []
        for await update in updates { seen.append(update) }
        let analysis = try await task.value
        #expect(seen.count >= 3)
        #expect(seen.last == WaveformProgress(frames: 1_500_000, fraction: 1))
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.frames < $1.frames })
        #expect(seen.dropLast().allSatisfy { ($0.fraction ?? 2) < 1 })
        #expect(analysis.waveform == (try AudioAnalysis(contentsOf: path)).waveform)
    }

    @Test func cancelledTaskThrowsCancelled() async throws {
        let task = Task { () async throws(AudioDecodingError) -> AudioAnalysis in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await AudioAnalysis.analyze(contentsOf: Fixtures.path("stereo-sine.wav"))
        }
        let result = await task.result
        #expect(throws: AudioDecodingError(path: Fixtures.path("stereo-sine.wav"), reason: .cancelled)) {
            try result.get()
        }
    }

    @Test func cancellationIsPolledBetweenChunks() throws {
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.longFile(in: directory)
        var reports: [WaveformProgress] = []
        #expect(throws: AudioDecodingError(path: path, reason: .cancelled)) {
            try AudioAnalysis(contentsOf: path, progress: { reports.append($0) }, isCancelled: { !reports.isEmpty })
        }
        #expect(reports.count == 1)
        #expect(reports[0].frames > 0 && reports[0].frames < 1_500_000)
    }

    @Test func asyncErrorsNameTheFile() async {
        await #expect(throws: AudioDecodingError(path: "/nonexistent/x.wav", reason: .notFound)) {
            try await AudioAnalysis.analyze(contentsOf: "/nonexistent/x.wav")
        }
    }
}
