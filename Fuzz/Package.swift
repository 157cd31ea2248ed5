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
func waveformFuzzer(_ name: String, quietMPG123: Bool = false) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport", .product(name: "Waveform", package: knobLink)]
            + (quietMPG123 ? ["CQuietMPG123"] : []),
        swiftSettings: fuzzerSettings,
        // The executable's mpg123_new must be in its dynamic symbol table to come before libmpg123's,
        // and libsndfile linked, not only opened by the Waveform module (CSndFile/shim.h): opened
        // RTLD_LOCAL, libmpg123 would be out of reach of the RTLD_NEXT lookup of the real function.
        linkerSettings: quietMPG123
            ? [.unsafeFlags(["-Xlinker", "--export-dynamic-symbol=mpg123_new"]), .linkedLibrary("sndfile")] : []
    )
}

// The server core's target (issue 9) drives `ServerCore` itself, through `@testable import`:
// `Scripts/fuzz.sh` builds with `-enable-testing` for it.
func serverFuzzer(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            "FuzzSupport", .product(name: "KnobLink", package: knobLink), .product(name: "OSCCore", package: knobLink),
            .product(name: "OSCTransport", package: knobLink), .product(name: "Parameters", package: knobLink),
        ],
        swiftSettings: fuzzerSettings
    )
}

// The HTTP and WebSocket codecs' targets (issue 11).
func httpFuzzer(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport", .product(name: "HTTPCore", package: knobLink)],
        swiftSettings: fuzzerSettings
    )
}

// The OSCQuery namespace's command parser (issue 11): the WebSocket's text frames.
func oscQueryFuzzer(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            "FuzzSupport", .product(name: "OSCQuery", package: knobLink),
            .product(name: "Parameters", package: knobLink),
        ],
        swiftSettings: fuzzerSettings
    )
}

// The mirror's reading of an OSCQuery namespace (issue 13), through `@testable import` like the
// server core's.
func remoteTreeFuzzer(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            "FuzzSupport", .product(name: "RemoteTree", package: knobLink),
            .product(name: "OSCQuery", package: knobLink),
            .product(name: "Parameters", package: knobLink),
        ],
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
        // libsndfile's MP3 decoder, libmpg123, prints every damaged frame to stderr unless told not
        // to (Sources/CQuietMPG123/quiet.c tells it).
        .target(name: "CQuietMPG123"),
        waveformFuzzer("FuzzAudioDecoder", quietMPG123: true),
        serverFuzzer("FuzzServerCore"),
        httpFuzzer("FuzzHTTPRequestParser"),
        httpFuzzer("FuzzWebSocketFrameDecoder"),
        httpFuzzer("FuzzHTTPResponseParser"),
        oscQueryFuzzer("FuzzOSCQueryCommand"),
        remoteTreeFuzzer("FuzzOSCQueryNamespace"),
    ]
)
