// swift-tools-version: 6.0
import Foundation
import PackageDescription

// KnobLink against liblo and the raw socket, side by side in one run (Docs/BENCHMARKS.md).
// A package of its own, so that the main package never links liblo into a product and never
// builds benchmarks in a normal `swift build`. Run everything with `bash Scripts/bench.sh`.
// SwiftPM names a path dependency after its directory (`main`, `bench`, whatever the checkout is
// called), not after its manifest's name, so the products are looked up under that identity.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let knobLink = root.lastPathComponent.lowercased()

let package = Package(
    name: "KnobLinkBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "..")
    ],
    targets: [
        // liblo's and the raw socket's loops, in C at -O2, so that no Swift call sits inside a peer's loop.
        .target(
            name: "CBenchPeer",
            cSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("lo"), .linkedLibrary("pthread"), .linkedLibrary("m")]
        ),
        .target(name: "BenchHarness", dependencies: ["CBenchPeer"]),
        .executableTarget(
            name: "OSCBenchmarks",
            dependencies: ["BenchHarness", "CBenchPeer", .product(name: "OSCCore", package: knobLink)]
        ),
        .executableTarget(
            name: "UDPBenchmarks",
            dependencies: [
                "BenchHarness", "CBenchPeer",
                .product(name: "OSCCore", package: knobLink),
                .product(name: "OSCTransport", package: knobLink),
            ]
        ),
        // The server suite (helper `srvbench`): the liblo reference server, the C peers both servers meet,
        // the reference server as a process of its own (for its resident size), and the Swift driver.
        .target(
            name: "CLibLOServer",
            cSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("lo"), .linkedLibrary("pthread")]
        ),
        .target(name: "CServerPeer", cSettings: [.unsafeFlags(["-O2"])], linkerSettings: [.linkedLibrary("pthread")]),
        .executableTarget(name: "LibLORefServer", dependencies: ["CLibLOServer"], cSettings: [.unsafeFlags(["-O2"])]),
        .executableTarget(
            name: "ServerBenchmarks",
            dependencies: [
                "BenchHarness", "CBenchPeer", "CLibLOServer", "CServerPeer",
                .product(name: "KnobLink", package: knobLink),
                .product(name: "Parameters", package: knobLink),
            ]
        ),
        // The waveform suite (helper `wavecore`): audiowaveform's algorithm as a plain C loop over libsndfile
        // and the decoder alone, both at -O2, against the Waveform module's analysis; the probe is the child
        // process whose peak memory is measured.
        .target(
            name: "CWaveformReference",
            cSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("sndfile"), .linkedLibrary("m")]
        ),
        .executableTarget(name: "WaveformMemoryProbe", dependencies: [.product(name: "Waveform", package: knobLink)]),
        .executableTarget(
            name: "WaveformBenchmarks",
            dependencies: ["BenchHarness", "CWaveformReference", .product(name: "Waveform", package: knobLink)]
        ),
        // Sources/ParameterBenchmarks/main.swift is helper `params`'s (Docs/PARAMETERS.md).
        .executableTarget(
            name: "ParameterBenchmarks",
            dependencies: ["BenchHarness", .product(name: "Parameters", package: knobLink)]
        ),
        // WebSocket peers against UDP peers of one embedded server: set → echo and a 64-listener fan-out (issue 11).
        .executableTarget(
            name: "WebSocketBenchmarks",
            dependencies: [
                "BenchHarness", .product(name: "KnobLink", package: knobLink),
                .product(name: "OSCCore", package: knobLink), .product(name: "Parameters", package: knobLink),
            ]
        ),
        // `GET /` of the OSCQuery namespace against the same bytes from a buffer (issue 11).
        .executableTarget(
            name: "OSCQueryBenchmarks",
            dependencies: [
                "BenchHarness", .product(name: "OSCQuery", package: knobLink),
                .product(name: "HTTPCore", package: knobLink), .product(name: "Parameters", package: knobLink),
            ]
        ),
        // Waveform rendering (helper `waverender`): full render, composed frames, PNG encoding.
        .executableTarget(
            name: "RenderBenchmarks",
            dependencies: [
                "BenchHarness", .product(name: "Waveform", package: knobLink),
                .product(name: "Controls", package: knobLink),
            ]
        ),
        // The terminal surface's frames on a 200×60 terminal: changed cells against a full redraw (issue 13).
        .executableTarget(
            name: "TerminalBenchmarks",
            dependencies: [
                "BenchHarness", .product(name: "TerminalUI", package: knobLink),
                .product(name: "Controls", package: knobLink), .product(name: "Waveform", package: knobLink),
                .product(name: "Parameters", package: knobLink),
            ]
        ),
    ]
)
