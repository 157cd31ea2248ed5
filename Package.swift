// swift-tools-version: 6.0
import PackageDescription

// The module map is in DESIGN.md: OSCCore (wire format, pure Swift), OSCTransport (sockets),
// Parameters (the tree), Controls (knob and toggle state machines), the `knoblink` command,
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
        .executable(name: "knoblink", targets: ["KnobLinkCLI"]),
    ],
    targets: [
        .target(name: "OSCCore"),
        .target(name: "OSCTransport", dependencies: ["OSCCore"]),
        .systemLibrary(name: "CLibLO", pkgConfig: "liblo", providers: [.apt(["liblo-dev"])]),
        .executableTarget(name: "KnobLinkCLI", dependencies: ["OSCCore", "OSCTransport"]),
        .target(name: "Parameters"),
        .target(name: "Controls", dependencies: ["Parameters"]),
        .target(name: "ControlsTesting", dependencies: ["Controls"]),
        .testTarget(name: "OSCCoreTests", dependencies: ["OSCCore", "CLibLO"]),
        .testTarget(name: "OSCTransportTests", dependencies: ["OSCTransport", "OSCCore", "CLibLO"]),
        .testTarget(name: "KnobLinkCLITests", dependencies: ["KnobLinkCLI", "OSCCore", "OSCTransport", "CLibLO"]),
        .testTarget(name: "ParametersTests", dependencies: ["Parameters"]),
        .testTarget(
            name: "ControlsTests", dependencies: ["Controls", "ControlsTesting", "Parameters"], exclude: ["Fixtures"]),
    ]
)
