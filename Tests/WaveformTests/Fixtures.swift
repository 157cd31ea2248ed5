import Foundation

/// The golden files of audiowaveform 1.10 (Fixtures/GOLDEN-README.md).
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")

    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// The inputs, each with the stem of its golden outputs (the FLAC shares the WAV's).
    static let inputs: [(file: String, stem: String)] = [
        ("stereo-sine.wav", "stereo-sine"), ("stereo-sine.flac", "stereo-sine"), ("mono-sweep.wav", "mono-sweep"),
        ("six-channels.wav", "six-channels"), ("float-loud.wav", "float-loud"),
    ]
}
