// swift-tools-version: 6.0
import PackageDescription

// The module map is in DESIGN.md: OSCCore (wire format, pure Swift), OSCTransport (sockets),
// Parameters (the tree), Controls (knob and toggle state machines), the `knoblink` command,
// Waveform (audio decoding through CSndFile, bars, pictures through CZlib, the scrubber),
// and CLibLO, liblo's C API, which only tests and benchmarks use as the reference peer.
let package = Package(
    name: "KnobLink",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "OSCCore", targets: ["OSCCore"]),
        .library(name: "OSCTransport", targets: ["OSCTransport"]),
        .library(name: "Parameters", targets: ["Parameters"]),
        .library(name: "Controls", targets: ["Controls"]),
        .library(name: "ControlsTesting", targets: ["ControlsTesting"]),
        .library(name: "Waveform", targets: ["Waveform"]),
        .library(name: "KnobLink", targets: ["KnobLink"]),
        .executable(name: "knoblink", targets: ["KnobLinkCLI"]),
    ],
    targets: [
        .target(name: "OSCCore"),
        .target(name: "OSCTransport", dependencies: ["OSCCore"]),
        .systemLibrary(name: "CLibLO", pkgConfig: "liblo", providers: [.apt(["liblo-dev"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "Waveform", dependencies: ["CSndFile", "CZlib", "Controls"]),
        .target(name: "KnobLink", dependencies: ["OSCCore", "OSCTransport", "Parameters", "Waveform"]),
        .executableTarget(
            name: "KnobLinkCLI", dependencies: ["OSCCore", "OSCTransport", "Parameters", "KnobLink", "Waveform"]),
        .target(name: "Parameters"),
        .target(name: "Controls", dependencies: ["Parameters"]),
        .target(name: "ControlsTesting", dependencies: ["Controls"]),
        .testTarget(name: "OSCCoreTests", dependencies: ["OSCCore", "CLibLO"]),
        .testTarget(name: "OSCTransportTests", dependencies: ["OSCTransport", "OSCCore", "CLibLO"]),
        .testTarget(
            name: "KnobLinkCLITests", dependencies: ["KnobLinkCLI", "OSCCore", "OSCTransport", "Parameters", "CLibLO"],
            exclude: ["Peers/python"]),
        .testTarget(name: "ParametersTests", dependencies: ["Parameters"]),
        .testTarget(name: "KnobLinkTests", dependencies: ["KnobLink", "OSCCore", "OSCTransport", "Parameters", "CLibLO"]),
        .testTarget(
            name: "ControlsTests", dependencies: ["Controls", "ControlsTesting", "Parameters"], exclude: ["Fixtures"]),
        .testTarget(
            name: "WaveformTests", dependencies: ["Waveform", "CSndFile", "CZlib", "Controls", "ControlsTesting"],
            exclude: ["Fixtures"]),
    ]
)
