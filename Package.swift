// swift-tools-version: 6.0
import PackageDescription

// The module map is in Docs/ARCHITECTURE.md: OSCCore (wire format, pure Swift), OSCTransport (sockets),
// Parameters (the tree), Controls (knob and toggle state machines), the `knoblink` command,
// Waveform (audio decoding through CSndFile, bars, pictures through CZlib, the scrubber), OSCQuery
// (the namespace, its JSON and the WebSocket commands over HTTPCore), WebSurface (the web page),
// Zeroconf (DNS-SD advertising through the Avahi daemon, via CAvahi), Locking (the one lock box),
// UncheckedState (state behind a pointer for the hot paths, checked in debug builds), and CLibLO,
// liblo's C API, which only tests and benchmarks use as the reference peer.
let package = Package(
    name: "KnobLink",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "OSCCore", targets: ["OSCCore"]),
        .library(name: "Locking", targets: ["Locking"]),
        .library(name: "UncheckedState", targets: ["UncheckedState"]),
        .library(name: "OSCTransport", targets: ["OSCTransport"]),
        .library(name: "Parameters", targets: ["Parameters"]),
        .library(name: "Controls", targets: ["Controls"]),
        .library(name: "ControlsTesting", targets: ["ControlsTesting"]),
        .library(name: "Waveform", targets: ["Waveform"]),
        .library(name: "KnobLink", targets: ["KnobLink"]),
        .library(name: "HTTPCore", targets: ["HTTPCore"]),
        .library(name: "WebSurface", targets: ["WebSurface"]),
        .library(name: "OSCQuery", targets: ["OSCQuery"]),
        .library(name: "Zeroconf", targets: ["Zeroconf"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "RemoteTree", targets: ["RemoteTree"]),
        .executable(name: "knoblink", targets: ["KnobLinkCLI"]),
    ],
    targets: [
        // Boxes, buffers and references without the run-time checks a class's stored state pays on every
        // access (exclusivity, uniqueness, reference counts), for the hot paths; debug builds check instead.
        .target(name: "UncheckedState"),
        .target(name: "OSCCore", dependencies: ["UncheckedState"]),
        // `Locked`, the one lock box: `Mutex` with the ordering shown to ThreadSanitizer.
        .target(name: "Locking"),
        // HTTP/1.1 and RFC 6455 WebSocket codecs for OSCQuery and the web page: bytes only, fuzzed.
        .target(name: "HTTPCore"),
        // The OSCQuery namespace over a tree, its JSON, and the WebSocket's text commands: pure, no sockets.
        .target(name: "OSCQuery", dependencies: ["HTTPCore", "Parameters"]),
        .target(name: "OSCTransport", dependencies: ["OSCCore", "Locking"]),
        // The web control surface's page, style sheet and scripts, embedded (GET /ui); no server code.
        .target(
            name: "WebSurface",
            resources: [
                .embedInCode("Resources/ui.html"), .embedInCode("Resources/ui.css"), .embedInCode("Resources/osc.js"),
                .embedInCode("Resources/math.js"), .embedInCode("Resources/input.js"),
                .embedInCode("Resources/wave.js"), .embedInCode("Resources/ui.js"),
            ]),
        .systemLibrary(name: "CLibLO", pkgConfig: "liblo", providers: [.apt(["liblo-dev"])]),
        // No pkgConfig: its -lsndfile would link the library, which the Waveform module opens at run
        // time instead (CSndFile/shim.h); the header is in /usr/include.
        .systemLibrary(name: "CSndFile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // No pkgConfig: avahi-client.pc adds -D_REENTRANT, which SwiftPM refuses with a warning on every
        // build; the headers are in /usr/include, and the library is opened at run time (CAvahi/shim.h).
        .systemLibrary(name: "CAvahi", providers: [.apt(["libavahi-client-dev"])]),
        // DNS-SD advertising (`_osc._udp`, `_oscjson._tcp`) through the Avahi daemon.
        .target(name: "Zeroconf", dependencies: ["CAvahi", "Locking"]),
        // Read-only windows of a file, guarded against SIGBUS when the file shrinks under them (C: a signal handler).
        .target(name: "CFileWindow"),
        .target(name: "Waveform", dependencies: ["CSndFile", "CZlib", "CFileWindow", "Controls"]),
        .target(
            name: "KnobLink",
            dependencies: [
                "OSCCore", "OSCTransport", "Parameters", "Waveform", "HTTPCore", "OSCQuery", "WebSurface", "Locking",
                "UncheckedState",
            ]),
        .executableTarget(
            name: "KnobLinkCLI",
            dependencies: [
                "OSCCore", "OSCTransport", "Parameters", "Controls", "KnobLink", "Waveform", "Zeroconf", "TerminalUI",
                "RemoteTree", "Locking",
            ]),
        .target(name: "Parameters", dependencies: ["Locking", "UncheckedState"]),
        .target(name: "Controls", dependencies: ["Parameters", "Locking"]),
        .target(name: "ControlsTesting", dependencies: ["Controls", "Locking"]),
        // The terminal control surface: cell grid, renderer, input decoding, layout; never the server.
        .target(name: "TerminalUI", dependencies: ["Controls", "Waveform", "Parameters", "Locking"]),
        // A mirror of a remote KnobLink server's tree (`knoblink surface URL`); never the server.
        .target(
            name: "RemoteTree",
            dependencies: ["OSCCore", "OSCTransport", "Parameters", "HTTPCore", "OSCQuery", "Locking"]),
        .testTarget(
            name: "RemoteTreeTests",
            dependencies: ["RemoteTree", "KnobLink", "OSCCore", "OSCTransport", "Parameters", "OSCQuery", "Locking"]),
        .testTarget(name: "OSCCoreTests", dependencies: ["OSCCore", "CLibLO"]),
        .testTarget(name: "UncheckedStateTests", dependencies: ["UncheckedState"]),
        .testTarget(name: "HTTPCoreTests", dependencies: ["HTTPCore"]),
        .testTarget(name: "OSCQueryTests", dependencies: ["OSCQuery", "HTTPCore", "Parameters"], exclude: ["python"]),
        .testTarget(name: "OSCTransportTests", dependencies: ["OSCTransport", "OSCCore", "CLibLO", "Locking"]),
        .testTarget(
            name: "KnobLinkCLITests",
            dependencies: ["KnobLinkCLI", "OSCCore", "OSCTransport", "Parameters", "CLibLO", "Locking"],
            exclude: ["Peers/python"]),
        .testTarget(name: "ParametersTests", dependencies: ["Parameters", "Locking"]),
        .testTarget(
            name: "WebSurfaceTests", dependencies: ["WebSurface", "Parameters", "Controls", "KnobLinkCLI"],
            exclude: ["browser"]),
        .testTarget(
            name: "KnobLinkTests",
            dependencies: ["KnobLink", "OSCCore", "OSCTransport", "Parameters", "CLibLO", "Locking"]),
        .testTarget(
            name: "ControlsTests", dependencies: ["Controls", "ControlsTesting", "Parameters", "Locking"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "TerminalUITests", dependencies: ["TerminalUI", "Controls", "Parameters", "Waveform", "Locking"]),
        .testTarget(
            name: "WaveformTests",
            dependencies: ["Waveform", "CSndFile", "CZlib", "CFileWindow", "Controls", "ControlsTesting"],
            exclude: ["Fixtures"],
            // The tests write their audio with libsndfile's own functions, so they link it.
            linkerSettings: [.linkedLibrary("sndfile")]),
        .testTarget(name: "ZeroconfTests", dependencies: ["Zeroconf", "Locking"], exclude: ["scripts"]),
    ]
)
