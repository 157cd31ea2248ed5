// swift-tools-version: 6.0
import Foundation
import PackageDescription

// A program that embeds a KnobLink server: `swift run` in this folder (Examples/EmbeddedServer).
// It depends on the KnobLink package two folders up. SwiftPM names a path dependency after its
// directory (`KnobLink`, `main`, whatever the checkout is called), not after its manifest's
// name, so the product is looked up under that identity.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let knobLink = root.lastPathComponent.lowercased()

let package = Package(
    name: "EmbeddedServer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "EmbeddedServer",
            dependencies: [
                .product(name: "KnobLink", package: knobLink),
                .product(name: "Parameters", package: knobLink),
            ]
        )
    ]
)
