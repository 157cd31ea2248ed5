// swift-tools-version: 6.0
import Foundation
import PackageDescription

// libFuzzer targets for KnobLink's decoders. A package of its own because libFuzzer supplies
// `main`, which would break a normal build of the main package. Build and run them all with
// `bash Scripts/fuzz.sh` (it runs `swift build -c release --sanitize=fuzzer` here).

// SwiftPM names a path dependency after its directory (`main`, `bench`, whatever the checkout is
// called), not after its manifest's name, so the products are looked up under that identity.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let knobLink = root.lastPathComponent.lowercased()

// Without `main.swift` the entry point is libFuzzer's; -parse-as-library keeps Swift from making one.
let fuzzerSettings: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

func fuzzer(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport", .product(name: "OSCCore", package: knobLink)],
        swiftSettings: fuzzerSettings
    )
}

// The waveform decoders' targets (helper `wavecore`): audiowaveform's .dat and .json, and audio files
// through libsndfile.
func waveformFuzzer(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport", .product(name: "Waveform", package: knobLink)],
        swiftSettings: fuzzerSettings
    )
}

let package = Package(
    name: "KnobLinkFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "..")
    ],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "OSCCore", package: knobLink)]),
        fuzzer("FuzzPacketDecoder"),
        fuzzer("FuzzPatternMatcher"),
        fuzzer("FuzzSLIPFramer"),
        fuzzer("FuzzLengthPrefixFramer"),
        waveformFuzzer("FuzzWaveformDat"),
        waveformFuzzer("FuzzWaveformJSON"),
        waveformFuzzer("FuzzAudioDecoder"),
    ]
)
