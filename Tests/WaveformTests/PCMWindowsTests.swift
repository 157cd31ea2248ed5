import CFileWindow
import CSndFile
import Foundation
import Testing

@testable import Waveform

/// 16-bit WAV read in place from windows of a mapping (`PCMWindows`), against the same files read
/// through libsndfile, and the SIGBUS guard under a file that shrinks while it is mapped.
@Suite struct PCMWindowsTests {
    /// More frames than two windows hold (so that, at 3 channels, windows end inside a frame).
    static func frames(channels: Int) -> Int { PCMWindows.windowBytes / (2 * channels) * 2 + 12_345 }

    static func writeWAV(channels: Int, frames: Int, format: Int32 = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16))
        throws -> (directory: URL, path: String)
    {
        let directory = try TestAudio.makeDirectory()
        let path = directory.appendingPathComponent("long.wav").path
        var samples = TestAudio.sine(frames: frames, channels: channels, sampleRate: 44_100, frequency: 97)
        // Noise on top, so that no two buckets are alike.
        var random = SplitMix(seed: 7)
        for index in samples.indices { samples[index] &+= Int16(truncatingIfNeeded: random.next() % 2001) &- 1000 }
        try TestAudio.write(samples, to: path, format: format, sampleRate: 44_100, channels: channels)
        return (directory, path)
    }

    @Test(arguments: [1, 2, 3])
    func inPlaceGivesWhatLibsndfileGives(channels: Int) throws {
        let frames = Self.frames(channels: channels)
        let (directory, path) = try Self.writeWAV(channels: channels, frames: frames)
        defer { try? FileManager.default.removeItem(at: directory) }
        for options in [WaveformOptions(zoom: 256), WaveformOptions(zoom: 300, splitChannels: true)] {
            let windowsBefore = kb_file_window_count()
            let mapped = try AudioAnalysis(contentsOf: path, options: options, readsInPlace: true)
            // The first chunk compared, then three windows of data.
            #expect(kb_file_window_count() >= windowsBefore + 4, "the frames after the first chunk came from windows")
            let read = try AudioAnalysis(contentsOf: path, options: options, readsInPlace: false)
            #expect(mapped.frameCount == frames && read.frameCount == frames)
            #expect(mapped.waveform == read.waveform)
            // The sums of squares are floats added up chunk by chunk, and the chunks differ.
            #expect(mapped.summary.peaks == read.summary.peaks)
            #expect(mapped.summary.pendingFrames == read.summary.pendingFrames)
            #expect(mapped.summary.sumSquares.count == read.summary.sumSquares.count)
            let worst = zip(mapped.summary.sumSquares, read.summary.sumSquares).map { abs($0 - $1) / max(1, $1) }.max()
            #expect((worst ?? 1) < 1e-5, "\(String(describing: worst))")
        }
    }

    @Test func onlySixteenBitLittleEndianPCMIsReadInPlace() throws {
        let cases: [(format: Int32, inPlace: Bool)] = [
            (Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16), true),
            (Int32(SF_FORMAT_WAVEX | SF_FORMAT_PCM_16), true),
            (Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_24), false),
            (Int32(SF_FORMAT_AIFF | SF_FORMAT_PCM_16), false),
            (Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16 | SF_ENDIAN_BIG), false),
            (Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16), false),
        ]
        for (format, inPlace) in cases {
            let (directory, path) = try Self.writeWAV(channels: 2, frames: 5000, format: format)
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = try SoundFile(path: path)
            #expect((PCMWindows(file) != nil) == inPlace, "format 0x\(String(format, radix: 16))")
        }
    }

    /// The guard itself: pages a truncation took away read as zeros, and the window says which
    /// was the first lost; without the guard this read ends the test process with SIGBUS.
    @Test func aShrunkFileReadsAsZerosAndSaysWhereItWasLost() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("pages").path
        try Data(repeating: 0xAB, count: page * 4).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDWR)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        var window = kb_file_window()
        #expect(kb_file_window_map(descriptor, 100, page * 4 - 100, &window) == 0)
        let bytes = try #require(window.bytes)
        #expect(bytes.load(fromByteOffset: page, as: UInt8.self) == 0xAB)
        #expect(ftruncate(descriptor, off_t(page)) == 0)
        // Offset 100 in the file is the window's first byte, so the file's page 2 is at 2 pages - 100.
        #expect(bytes.load(fromByteOffset: 2 * page - 100 + 7, as: UInt8.self) == 0)
        #expect(bytes.load(fromByteOffset: 3 * page - 100, as: UInt8.self) == 0)
        #expect(bytes.load(fromByteOffset: 10, as: UInt8.self) == 0xAB)
        let lost = kb_file_window_unmap(&window)
        #expect(lost == UInt(bitPattern: bytes - 100) + UInt(2 * page))
    }

    /// The file is cut, at three quarters of its frames, while the first window is analysed.
    @Test func aWAVThatShrinksWhileItIsAnalysedIsReportedTruncated() throws {
        let frames = PCMWindows.windowBytes  // four windows of stereo frames
        let (directory, path) = try Self.writeWAV(channels: 2, frames: frames)
        defer { try? FileManager.default.removeItem(at: directory) }
        let kept = frames / 4 * 3 + 10
        var shrunk = false
        var reason: AudioDecodingError.Reason?
        do {
            _ = try AudioAnalysis(
                contentsOf: path,
                progress: { _ in
                    if !shrunk { shrunk = truncate(path, off_t(44 + kept * 4)) == 0 }
                }, readsInPlace: true)
        } catch {
            reason = error.reason
        }
        #expect(shrunk)
        guard case .truncated(let expected, let decoded) = reason else {
            Issue.record("\(String(describing: reason))")
            return
        }
        #expect(expected == frames)
        #expect(decoded == kept)
    }
}
