import Foundation
import Testing

@testable import Parameters

@Suite struct DefaultTreeTests {
    private static let exampleURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/trees/default.json")

    @Test func exampleFileEqualsTheEmbeddedTree() throws {
        let fromFile = try ParameterTree(contentsOf: DefaultTreeTests.exampleURL)
        #expect(fromFile.specs == ParameterTree.defaultSpecs)
        let text = try String(contentsOf: DefaultTreeTests.exampleURL, encoding: .utf8)
        #expect(text == ParameterTree.makeDefault().jsonString())
    }

    @Test func content() throws {
        let tree = ParameterTree.makeDefault()
        #expect(tree.children.map(\.identifier) == ["knob", "toggle", "amp", "mod"])
        let gain = try #require(tree.parameter(forOSCAddress: "/knob/gain"))
        #expect(gain.minValue == -60 && gain.maxValue == 12 && gain.defaultValue == 0 && gain.unit == .decibels)
        let frequency = try #require(tree.parameter(forOSCAddress: "/knob/frequency"))
        #expect(frequency.minValue == 10 && frequency.maxValue == 20000 && frequency.taper == .logarithmic)
        #expect(frequency.unit == .hertz && frequency.flags.contains(.canRamp) && frequency.address == 3)
        let pan = try #require(tree.parameter(forOSCAddress: "/knob/pan"))
        #expect(pan.minValue == -50 && pan.maxValue == 50 && pan.address == 4)
        for (name, address) in [("retrigger", 1), ("monophonic", 2)] {
            let toggle = try #require(tree.parameter(forOSCAddress: "/toggle/\(name)"))
            #expect(toggle.unit == .boolean && toggle.address == ParameterAddress(address))
        }
        let envelope: [(String, Float, ParameterUnit, ParameterTaper)] = [
            ("delay", 2, .seconds, .logarithmic), ("attack", 5, .seconds, .logarithmic),
            ("hold", 5, .seconds, .logarithmic), ("decay", 5, .seconds, .logarithmic),
            ("sustain", 100, .percent, .linear), ("release", 10, .seconds, .logarithmic),
        ]
        for (base, group) in [(100, "amp"), (200, "mod")] {
            for (offset, entry) in envelope.enumerated() {
                let parameter = try #require(tree.parameter(forKeyPath: "\(group).\(entry.0)"))
                #expect(parameter.address == ParameterAddress(base + offset))
                #expect(parameter.minValue == 0 && parameter.maxValue == entry.1)
                #expect(parameter.unit == entry.2 && parameter.taper == entry.3)
            }
        }
        let allWritable = tree.allParameters.allSatisfy { $0.isWritable }
        #expect(allWritable)
    }

    @Test func eachCallHasItsOwnValues() throws {
        let first = ParameterTree.makeDefault()
        let second = ParameterTree.makeDefault()
        first.parameter(forKeyPath: "knob.gain")!.setValue(-6)
        #expect(second.parameter(forKeyPath: "knob.gain")!.value == 0)
    }
}

@Suite struct DocumentationExampleTests {
    private static let docsURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Docs/PARAMETERS.md")

    /// The JSON blocks of Docs/PARAMETERS.md, in order.
    private func jsonBlocks() throws -> [String] {
        let text = try String(contentsOf: DocumentationExampleTests.docsURL, encoding: .utf8)
        return text.components(separatedBy: "```json\n").dropFirst().compactMap {
            $0.components(separatedBy: "```").first
        }
    }

    @Test func treeExampleLoads() throws {
        let blocks = try jsonBlocks()
        #expect(blocks.count == 2)
        let tree = try ParameterTree(jsonData: Array(try #require(blocks.first).utf8))
        #expect(tree.parameter(forOSCAddress: "/knob/gain")?.unit == .decibels)
        #expect(tree.parameter(forOSCAddress: "/knob/wave")?.string(fromValue: 1) == "Square")
    }

    @Test func presetExampleRestores() throws {
        let preset = try ParameterPreset(jsonData: Array(try #require(try jsonBlocks().last).utf8))
        let report = ParameterTree.makeDefault().restore(preset)
        #expect(report.isComplete && report.applied == ["knob.gain", "amp.attack"])
        #expect(preset.name == "Lead")
    }
}

@Suite struct ExampleTreeTests {
    private static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/trees")

    @Test func everyExampleLoadsAndRoundTrips() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: ExampleTreeTests.directory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(names.contains("default.json") && names.contains("two-voices.json"))
        for name in names {
            let url = ExampleTreeTests.directory.appendingPathComponent(name)
            let tree = try ParameterTree(contentsOf: url)
            // The examples are written in the writer's own layout, so they read back byte for byte.
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(tree.jsonString() == text, "\(name)")
        }
    }

    @Test func twoVoicesExample() throws {
        let tree = try ParameterTree(contentsOf: ExampleTreeTests.directory.appendingPathComponent("two-voices.json"))
        let cutoff = try #require(tree.parameter(forOSCAddress: "/voice1/filter/cutoff"))
        #expect(cutoff.taper == .logarithmic && cutoff.string() == "2kHz")
        let wave = try #require(tree.parameter(withAddress: 101))
        #expect(wave.string() == "Sine")
        #expect(try wave.value(fromString: "saw") == 3)
        let level = try #require(tree.parameter(forKeyPath: "master.level"))
        #expect(!level.isWritable && tree.makePreset().values["master.level"] == nil)
        #expect(tree.parameter(forKeyPath: "master.tempo")?.string() == "120 BPM")
    }
}
