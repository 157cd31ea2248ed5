import Foundation
import Locking
import Synchronization
import Testing

@testable import Parameters

@Suite struct PresetTests {
    @Test func roundTripsThroughJSON() throws {
        let tree = ParameterTree.makeDefault()
        tree.parameter(forKeyPath: "knob.gain")!.setValue(-6.25)
        tree.parameter(forKeyPath: "amp.attack")!.setValue(0.1)
        tree.parameter(forKeyPath: "toggle.retrigger")!.setValue(1)
        let preset = tree.makePreset(name: "Lead")
        #expect(preset.values.count == tree.allParameters.count)
        let reread = try ParameterPreset(jsonData: Array(preset.jsonString().utf8))
        #expect(reread == preset)

        let other = ParameterTree.makeDefault()
        let report = other.restore(reread)
        #expect(report.isComplete)
        #expect(report.applied.count == tree.allParameters.count)
        #expect(other.snapshotValues() == tree.snapshotValues())
    }

    @Test func writesAtomicallyAndReadsBack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("presets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Lead.json")
        let tree = ParameterTree.makeDefault()
        try tree.makePreset(name: "one").write(to: url)
        tree.parameter(forKeyPath: "knob.pan")!.setValue(25)
        try tree.makePreset(name: "two").write(to: url)
        let reread = try ParameterPreset(contentsOf: url)
        #expect(reread.name == "two")
        #expect(reread.values["knob.pan"] == 25)
        // Only the destination remains: the temporary file was renamed, not left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["Lead.json"])
    }

    @Test func failedWriteLeavesTheOldFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("presets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Lead.json")
        try ParameterTree.makeDefault().makePreset(name: "old").write(to: url)
        // A directory in the way of the rename makes the write fail after the temporary file exists.
        let blocked = directory.appendingPathComponent("Blocked.json")
        try FileManager.default.createDirectory(
            at: blocked.appendingPathComponent("inside"), withIntermediateDirectories: true)
        #expect(throws: (any Error).self) { try ParameterTree.makeDefault().makePreset(name: "new").write(to: blocked) }
        #expect(try ParameterPreset(contentsOf: url).name == "old")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                "Blocked.json", "Lead.json",
            ])
    }

    @Test func partialRestoreReportsTheRest() throws {
        let text = """
            {"format": "knoblink-preset", "version": 1, "values": {
              "knob.gain": -12, "knob.volume": 3, "amp.sustain": 120, "knob.pan": "left", "toggle.retrigger": 1
            }}
            """
        let preset = try ParameterPreset(jsonData: Array(text.utf8))
        let tree = ParameterTree.makeDefault()
        let report = tree.restore(preset)
        #expect(report.applied == ["knob.gain", "toggle.retrigger"])
        #expect(
            report.issues == [
                PresetIssue(keyPath: "amp.sustain", kind: .outOfRange(value: 120, min: 0, max: 100)),
                PresetIssue(keyPath: "knob.pan", kind: .notANumber(found: "a string")),
                PresetIssue(keyPath: "knob.volume", kind: .unknownKeyPath),
            ])
        #expect(!report.isComplete)
        #expect(tree.parameter(forKeyPath: "knob.gain")!.value == -12)
        #expect(tree.parameter(forKeyPath: "amp.sustain")!.value == 80)
        #expect(report.issues[0].description == "'amp.sustain': 120.0 outside 0.0…100.0")
    }

    @Test func omitFromPresetsIsHonoured() throws {
        let tree = try ParameterTree(children: [
            .parameter(ParameterSpec(identifier: "a", displayName: "A", address: 1, minValue: 0, maxValue: 10)),
            .parameter(
                ParameterSpec(
                    identifier: "meter", displayName: "Meter", address: 2, minValue: 0, maxValue: 1,
                    flags: [.readable, .meterReadOnly, .omitFromPresets])),
        ])
        tree.parameter(withAddress: 2)!.setValue(0.5)
        let preset = tree.makePreset()
        #expect(preset.values.keys.sorted() == ["a"])
        let report = tree.restore(ParameterPreset(values: ["a": 4, "meter": 1]))
        #expect(report.applied == ["a"])
        #expect(report.issues == [PresetIssue(keyPath: "meter", kind: .omittedFromPresets)])
        #expect(tree.parameter(withAddress: 2)!.value == 0.5)
    }

    @Test func restoreTellsObserversExceptTheOriginator() throws {
        let tree = ParameterTree.makeDefault()
        let count = Locked(0)
        let token = tree.token { _ in count.withLock { $0 += 1 } }
        let otherCount = Locked(0)
        _ = tree.token { _ in otherCount.withLock { $0 += 1 } }
        tree.restore(ParameterPreset(values: ["knob.gain": -1, "knob.pan": 1]), originator: token)
        #expect(count.withLock { $0 } == 0)
        #expect(otherCount.withLock { $0 } == 2)
    }

    @Test(arguments: [
        ("", PresetError.invalidJSON(offset: 0, reason: "unexpected end of text")),
        ("[]", .unsupportedFormat("the top level must be an object")),
        (
            #"{"format": "knoblink-tree", "version": 1, "values": {}}"#,
            .unsupportedFormat("'format' must be \"knoblink-preset\"")
        ),
        (#"{"format": "knoblink-preset", "version": 3, "values": {}}"#, .unsupportedFormat("'version' must be 1")),
        (
            #"{"format": "knoblink-preset", "version": 1}"#,
            .unsupportedFormat("'values' must be an object of key paths and numbers")
        ),
        (
            #"{"format": "knoblink-preset", "version": 1, "values": {}, "name": 3}"#,
            .unsupportedFormat("'name' must be a string")
        ),
    ])
    func refusesFilesThatAreNotPresets(text: String, expected: PresetError) {
        #expect(throws: expected) { try ParameterPreset(jsonData: Array(text.utf8)) }
    }
}
