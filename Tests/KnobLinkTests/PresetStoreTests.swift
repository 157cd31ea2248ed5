import Foundation
import Parameters
import Testing

@testable import KnobLink

@Suite struct PresetStoreTests {
    /// A fresh presets directory, removed when the test ends.
    final class Directory {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("presets-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
        func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() }
    }

    @Test(arguments: [
        "Lead", "a", "My Preset 2", "v1.2_final-mix", "a..b", String(repeating: "x", count: 64),
    ])
    func acceptsNames(name: String) throws {
        try PresetStore.validate(name: name)
        #expect(PresetStore.isValid(name: name))
    }

    @Test(arguments: [
        ("", "the name is empty"),
        (".hidden", "starts with '.'"),
        ("..", "starts with '.'"),
        (String(repeating: "x", count: 65), "longer than 64 characters"),
        ("a/b", "character '/' is not a letter, digit, space, '_', '.' or '-'"),
        ("../etc/passwd", "starts with '.'"),
        ("x\\y", "character '\\' is not a letter, digit, space, '_', '.' or '-'"),
        ("tab\there", "character 0x09 is not a letter, digit, space, '_', '.' or '-'"),
        ("nul\u{0}", "character 0x00 is not a letter, digit, space, '_', '.' or '-'"),
        ("café", "character 0xC3 is not a letter, digit, space, '_', '.' or '-'"),
    ])
    func refusesNames(name: String, reason: String) {
        #expect(throws: PresetStoreError.invalidName(name, reason: reason)) { try PresetStore.validate(name: name) }
        #expect(!PresetStore.isValid(name: name))
    }

    @Test func saveLoadListDelete() throws {
        let directory = Directory()
        let store = try PresetStore(directory: directory.url.appendingPathComponent("nested"))
        let tree = ParameterTree.makeDefault()
        tree.parameter(forKeyPath: "knob.gain")!.setValue(-6)
        try store.save(tree, as: "Lead")
        tree.parameter(forKeyPath: "knob.gain")!.setValue(-12)
        try store.save(tree, as: "Pad 2")
        #expect(try store.list() == ["Lead", "Pad 2"])

        let report = try store.load("Lead", into: tree)
        #expect(report.isComplete)
        #expect(tree.parameter(forKeyPath: "knob.gain")!.value == -6)
        #expect(try store.preset(named: "Pad 2").name == "Pad 2")

        try store.delete("Lead")
        #expect(try store.list() == ["Pad 2"])
        #expect(throws: PresetStoreError.notFound("Lead")) { try store.delete("Lead") }
        #expect(throws: PresetStoreError.notFound("Lead")) { try store.load("Lead", into: tree) }
    }

    @Test func saveOverwritesAtomically() throws {
        let directory = Directory()
        let store = try PresetStore(directory: directory.url)
        let tree = ParameterTree.makeDefault()
        for value in stride(from: Float(-40), through: 0, by: 10) {
            tree.parameter(forKeyPath: "knob.gain")!.setValue(value)
            try store.save(tree, as: "Lead")
        }
        // One file: every save renamed its temporary file over the destination.
        #expect(try directory.files() == ["Lead.json"])
        #expect(try store.preset(named: "Lead").values["knob.gain"] == 0)
    }

    @Test func listSkipsForeignFiles() throws {
        let directory = Directory()
        let store = try PresetStore(directory: directory.url)
        try store.save(ParameterTree.makeDefault(), as: "ok")
        for file in [".ok.json.1234.tmp", "notes.txt", ".hidden.json", "sub.json.bak"] {
            let path = directory.url.appendingPathComponent(file).path
            _ = FileManager.default.createFile(atPath: path, contents: Data())
        }
        #expect(try store.list() == ["ok"])
    }

    @Test func loadingAMissingOrInvalidNameFails() throws {
        let directory = Directory()
        let store = try PresetStore(directory: directory.url)
        let tree = ParameterTree.makeDefault()
        #expect(throws: PresetStoreError.notFound("nothing")) { try store.load("nothing", into: tree) }
        #expect(throws: PresetStoreError.invalidName("../x", reason: "starts with '.'")) {
            try store.load("../x", into: tree)
        }
        #expect(throws: PresetStoreError.self) { try store.save(tree, as: "a/b") }
    }

    @Test func hostileFilesAreRefusedWithoutChangingTheTree() throws {
        let directory = Directory()
        let store = try PresetStore(directory: directory.url)
        let tree = ParameterTree.makeDefault()
        let before = tree.snapshotValues()
        func put(_ name: String, _ bytes: [UInt8]) {
            _ = FileManager.default.createFile(
                atPath: directory.url.appendingPathComponent(name + ".json").path, contents: Data(bytes))
        }
        put("huge", Array("{\"values\": {".utf8) + [UInt8](repeating: 0x20, count: ParameterPreset.maximumFileSize))
        put("random", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        put("array", Array("[1, 2, 3]".utf8))
        put("deep", Array((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8))
        put("wrongFormat", Array("{\"format\": \"other\", \"version\": 1, \"values\": {}}".utf8))
        put("valuesNotObject", Array("{\"format\": \"knoblink-preset\", \"version\": 1, \"values\": 3}".utf8))
        for name in ["huge", "random", "array", "deep", "wrongFormat", "valuesNotObject"] {
            #expect(throws: PresetStoreError.self) { try store.load(name, into: tree) }
        }
        let limit = ParameterPreset.maximumFileSize
        #expect(throws: PresetStoreError.unreadable("huge", .fileTooLarge(bytes: limit + 12, limit: limit))) {
            try store.preset(named: "huge")
        }
        #expect(tree.snapshotValues() == before)
    }

    @Test func nonRegularFilesAreRefused() throws {
        let directory = Directory()
        let store = try PresetStore(directory: directory.url)
        // A symbolic link to a device that never ends must not be read.
        try FileManager.default.createSymbolicLink(
            atPath: directory.url.appendingPathComponent("zero.json").path, withDestinationPath: "/dev/zero")
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("dir.json"), withIntermediateDirectories: false)
        for name in ["zero", "dir"] {
            let path = directory.url.appendingPathComponent(name + ".json").path
            #expect(throws: PresetStoreError.unreadable(name, .unreadable(path: path, reason: "not a regular file"))) {
                try store.preset(named: name)
            }
        }
    }

    @Test func partialPresetLoadsWhatFits() throws {
        let directory = Directory()
        let store = try PresetStore(directory: directory.url)
        let text = """
            {"format": "knoblink-preset", "version": 1, "name": "partial", "values": {
              "knob.gain": -3, "knob.pan": 1000, "no.such": 1, "amp.attack": "fast", "amp.release": 0.5
            }}
            """
        _ = FileManager.default.createFile(
            atPath: directory.url.appendingPathComponent("partial.json").path, contents: Data(text.utf8))
        let tree = ParameterTree.makeDefault()
        let panBefore = tree.parameter(forKeyPath: "knob.pan")!.value
        let report = try store.load("partial", into: tree)
        #expect(Set(report.applied) == ["knob.gain", "amp.release"])
        #expect(report.issues.map(\.keyPath) == ["amp.attack", "knob.pan", "no.such"])
        #expect(tree.parameter(forKeyPath: "knob.gain")!.value == -3)
        #expect(tree.parameter(forKeyPath: "amp.release")!.value == 0.5)
        #expect(tree.parameter(forKeyPath: "knob.pan")!.value == panBefore)
    }

    @Test func directoryThatIsAFileIsAnError() throws {
        let directory = Directory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let file = directory.url.appendingPathComponent("file")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data())
        #expect(throws: PresetStoreError.fileSystem(file.path, reason: "exists and is not a directory")) {
            try PresetStore(directory: file)
        }
    }

    @Test func errorsReadForPeers() {
        #expect(PresetStoreError.notFound("Lead").description == "preset 'Lead': not found")
        #expect(
            PresetStoreError.unreadable("x", .fileTooLarge(bytes: 5, limit: 4)).description
                == "preset 'x': file of 5 bytes is larger than 4")
    }
}
