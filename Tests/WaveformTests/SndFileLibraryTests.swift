import Testing

@testable import Waveform

/// ``SndFileLibrary``: libsndfile opened at run time rather than linked (CSndFile/shim.h).
@Suite struct SndFileLibraryTests {
    @Test func theLibraryOfThisMachineOpensWithEveryFunction() throws {
        let api = try SndFileLibrary.load(SndFileLibrary.fileName).get()
        #expect(api.message(code: 0) == "No Error.")
        // The same functions decode a file: the error of a failed open comes through the table.
        let noise = [UInt8](repeating: 7, count: 64)
        let error = #expect(throws: AudioDecodingError.self) {
            try noise.withUnsafeBytes { try AudioAnalysis(audioBytes: $0, name: "noise.bin") }
        }
        guard case .notAudio(let detail) = error?.reason else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(detail.contains("Format not recognised"), "\(detail)")
    }

    @Test func aMissingLibraryIsAnErrorThatSaysWhatToInstall() {
        let missing = "libsndfile-not-installed.so.1"
        guard case .failure(let failure) = SndFileLibrary.load(missing) else {
            Issue.record("a library that does not exist was opened")
            return
        }
        let error = AudioDecodingError(path: "song.wav", reason: .decoderUnavailable(detail: failure.description))
        #expect(error.description.hasPrefix("cannot decode 'song.wav': no audio decoder (cannot load \(missing): "))
        #expect(error.description.contains("apt-get install libsndfile1"), "\(error)")
    }
}
