import Foundation
import Testing

@testable import Parameters

@Suite struct TreeFileTests {
    /// A tree file around the given top-level children (JSON text).
    private func file(_ children: String) -> [UInt8] {
        Array(#"{"format": "knoblink-tree", "version": 1, "children": [\#(children)]}"#.utf8)
    }

    private func parameter(_ identifier: String = "p", address: Int = 1, extra: String = "") -> String {
        #"{"kind": "parameter", "identifier": "\#(identifier)", "address": \#(address), "min": 0, "max": 1\#(extra)}"#
    }

    private func group(_ identifier: String, _ children: String) -> String {
        #"{"kind": "group", "identifier": "\#(identifier)", "children": [\#(children)]}"#
    }

    private func load(_ bytes: [UInt8]) throws(ParameterTreeError) -> ParameterTree {
        try ParameterTree(jsonData: bytes)
    }

    @Test func readsEveryField() throws {
        let tree = try load(
            file(
                group(
                    "osc",
                    #"{"kind": "parameter", "identifier": "wave", "displayName": "Waveform", "shortNames": ["Wave", "W"], "address": 18446744073709551615, "min": 1, "max": 3, "default": 2, "unit": "indexed", "unitName": "shape", "taper": "squared", "flags": ["valuesHaveStrings", "readable", "omitFromPresets"], "valueStrings": ["Sine", "Square", "Saw"], "dependentParameters": [7, 8]}"#
                )))
        let wave = try #require(tree.parameter(forOSCAddress: "/osc/wave"))
        #expect(wave.address == UInt64.max)
        #expect(wave.displayName == "Waveform" && wave.shortNames == ["Wave", "W"])
        #expect(wave.minValue == 1 && wave.maxValue == 3 && wave.defaultValue == 2 && wave.value == 2)
        #expect(wave.unit == .indexed && wave.unitName == "shape" && wave.taper == .squared)
        #expect(wave.flags == [.valuesHaveStrings, .readable, .omitFromPresets, .displaySquared])
        #expect(!wave.isWritable)
        #expect(wave.valueStrings == ["Sine", "Square", "Saw"])
        #expect(wave.dependentParameters == [7, 8])
    }

    @Test func omittedFieldsTakeTheirDefaults() throws {
        let tree = try load(file(parameter("p")))
        let p = try #require(tree.parameter(forKeyPath: "p"))
        #expect(p.displayName == "p" && p.defaultValue == 0 && p.unit == .generic && p.taper == .linear)
        #expect(p.flags == [.readable, .writable])
    }

    @Test func roundTripsThroughJSON() throws {
        let original = ParameterTree.makeDefault()
        let text = original.jsonString()
        let reread = try load(Array(text.utf8))
        #expect(reread.specs == original.specs)
        #expect(reread.jsonString() == text)

        let unusual = try load(
            file(
                parameter(
                    "x", address: 42,
                    extra:
                        #", "displayName": "Tab\t\"quoted\" é", "default": 0.1, "taper": "cubeRoot", "unit": "customUnit", "unitName": "furlongs", "valueStrings": ["a\\b"], "dependentParameters": [9], "shortNames": ["X"]"#
                )))
        let again = try load(Array(unusual.jsonString().utf8))
        #expect(again.specs == unusual.specs)
        #expect(again.parameter(withAddress: 42)?.defaultValue == 0.1)
    }

    @Test func writesAtomically() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tree-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("tree.json")
        try ParameterTree.makeDefault().write(to: url)
        let reread = try ParameterTree(contentsOf: url)
        #expect(reread.specs == ParameterTree.defaultSpecs)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["tree.json"])
    }

    static let errorCases: [(String, String, ParameterTreeError)] = [
        ("not JSON", "{", .invalidJSON(offset: 1, reason: "expected a key")),
        (
            "trailing text", #"{"format": "knoblink-tree", "version": 1, "children": []} x"#,
            .invalidJSON(offset: 58, reason: "unexpected text after the value")
        ),
        ("top level array", "[]", .unsupportedFormat("the top level must be an object")),
        (
            "wrong format", #"{"format": "other", "version": 1, "children": []}"#,
            .unsupportedFormat("'format' must be \"knoblink-tree\"")
        ),
        (
            "wrong version", #"{"format": "knoblink-tree", "version": 2, "children": []}"#,
            .unsupportedFormat("'version' must be 1")
        ),
        (
            "unknown top-level field", #"{"format": "knoblink-tree", "version": 1, "children": [], "x": 1}"#,
            .unknownField(keyPath: "", field: "x")
        ),
        (
            "children not an array", #"{"format": "knoblink-tree", "version": 1, "children": {}}"#,
            .wrongType(keyPath: "", field: "children", expected: "an array of nodes")
        ),
    ]

    @Test(arguments: errorCases)
    func refusesBadFiles(name: String, text: String, expected: ParameterTreeError) {
        #expect(throws: expected, "\(name)") { try load(Array(text.utf8)) }
    }

    static let nodeCases: [(String, ParameterTreeError)] = [
        (#"5"#, .wrongType(keyPath: "[0]", field: "children", expected: "an object")),
        (
            #"{"kind": "parameter", "address": 1, "min": 0, "max": 1}"#,
            .missingField(keyPath: "[0]", field: "identifier")
        ),
        (
            #"{"kind": "parameter", "identifier": 7}"#,
            .wrongType(keyPath: "[0]", field: "identifier", expected: "a string")
        ),
        (#"{"identifier": "a", "address": 1}"#, .missingField(keyPath: "a", field: "kind")),
        (
            #"{"kind": "knob", "identifier": "a"}"#,
            .invalidValue(keyPath: "a", field: "kind", reason: "'knob' is not group or parameter")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "min": 0, "max": 1}"#,
            .missingField(keyPath: "a", field: "address")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": 1, "max": 1}"#,
            .missingField(keyPath: "a", field: "min")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": 1, "min": 1}"#,
            .missingField(keyPath: "a", field: "max")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": "1", "min": 0, "max": 1}"#,
            .wrongType(keyPath: "a", field: "address", expected: "a number")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": -1, "min": 0, "max": 1}"#,
            .invalidValue(keyPath: "a", field: "address", reason: "must be an integer from 0 to 2^64-1")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": 1.5, "min": 0, "max": 1}"#,
            .invalidValue(keyPath: "a", field: "address", reason: "must be an integer from 0 to 2^64-1")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": 18446744073709551616, "min": 0, "max": 1}"#,
            .invalidValue(keyPath: "a", field: "address", reason: "must be an integer from 0 to 2^64-1")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": 1, "min": true, "max": 1}"#,
            .wrongType(keyPath: "a", field: "min", expected: "a number")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": 1, "min": 0, "max": 1e39}"#,
            .invalidValue(keyPath: "a", field: "max", reason: "1e39 does not fit a 32-bit float")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": 1, "min": 2, "max": 1}"#,
            .invalidRange(keyPath: "a", min: 2, max: 1)
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": 1, "min": 0, "max": 1, "default": 3}"#,
            .defaultOutOfRange(keyPath: "a", defaultValue: 3)
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": 1, "min": 0, "max": 1, "unit": "furlongs"}"#,
            .invalidValue(keyPath: "a", field: "unit", reason: "unknown unit 'furlongs'")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": 1, "min": 0, "max": 1, "unit": 13}"#,
            .wrongType(keyPath: "a", field: "unit", expected: "a string")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": 1, "min": 0, "max": 1, "taper": "wobbly"}"#,
            .invalidValue(keyPath: "a", field: "taper", reason: "unknown taper 'wobbly'")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": 1, "min": 0, "max": 1, "flags": ["fast"]}"#,
            .invalidValue(keyPath: "a", field: "flags", reason: "unknown flag 'fast'")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": 1, "min": 0, "max": 1, "flags": "readable"}"#,
            .wrongType(keyPath: "a", field: "flags", expected: "an array of strings")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": 1, "min": 0, "max": 1, "valueStrings": [1]}"#,
            .wrongType(keyPath: "a", field: "valueStrings", expected: "an array of strings")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": 1, "min": 0, "max": 1, "dependentParameters": ["b"]}"#,
            .wrongType(keyPath: "a", field: "dependentParameters", expected: "an array of addresses")
        ),
        (
            #"{"kind": "parameter", "identifier": "a", "address": 1, "min": 0, "max": 1, "colour": "red"}"#,
            .unknownField(keyPath: "a", field: "colour")
        ),
        (#"{"kind": "group", "identifier": "g"}"#, .missingField(keyPath: "g", field: "children")),
        (
            #"{"kind": "group", "identifier": "g", "children": [], "address": 3}"#,
            .unknownField(keyPath: "g", field: "address")
        ),
        (
            #"{"kind": "group", "identifier": "g", "children": 3}"#,
            .wrongType(keyPath: "g", field: "children", expected: "an array of nodes")
        ),
        (
            #"{"kind": "parameter", "identifier": "a b", "address": 1, "min": 0, "max": 1}"#,
            .invalidIdentifier(keyPath: "a b", identifier: "a b")
        ),
        (
            #"{"kind": "parameter", "identifier": "", "address": 1, "min": 0, "max": 1}"#,
            .invalidIdentifier(keyPath: "", identifier: "")
        ),
        (
            #"{"kind": "parameter", "identifier": "a.b", "address": 1, "min": 0, "max": 1}"#,
            .invalidIdentifier(keyPath: "a.b", identifier: "a.b")
        ),
        (
            #"{"kind": "parameter", "identifier": "gäin", "address": 1, "min": 0, "max": 1}"#,
            .invalidIdentifier(keyPath: "gäin", identifier: "gäin")
        ),
        (
            #"{"kind": "parameter", "identifier": "sys", "address": 1, "min": 0, "max": 1}"#,
            .reservedIdentifier(keyPath: "sys", identifier: "sys")
        ),
        (
            #"{"kind": "group", "identifier": "wave", "children": []}"#,
            .reservedIdentifier(keyPath: "wave", identifier: "wave")
        ),
    ]

    @Test(arguments: nodeCases)
    func namesTheOffendingNodeAndField(node: String, expected: ParameterTreeError) {
        #expect(throws: expected) { try load(file(node)) }
    }

    @Test(arguments: ["raw", "str", "touch", "z", "reset", "get", "info"])
    func facetNamesAreReservedAtEveryLevel(name: String) {
        #expect(throws: ParameterTreeError.reservedIdentifier(keyPath: "g.\(name)", identifier: name)) {
            try load(file(group("g", parameter(name))))
        }
        #expect(throws: ParameterTreeError.reservedIdentifier(keyPath: name, identifier: name)) {
            try load(file(parameter(name)))
        }
    }

    @Test func sysAndWaveAreAllowedBelowTheTopLevel() throws {
        let tree = try load(file(group("g", parameter("sys", address: 1) + "," + parameter("wave", address: 2))))
        #expect(tree.parameter(forOSCAddress: "/g/sys") != nil)
    }

    @Test func duplicateIdentifiersAmongSiblings() throws {
        #expect(throws: ParameterTreeError.duplicateIdentifier(keyPath: "g.a")) {
            try load(file(group("g", parameter("a", address: 1) + "," + parameter("a", address: 2))))
        }
        // The same identifier under different parents is fine.
        let tree = try load(file(group("g", parameter("a", address: 1)) + "," + group("h", parameter("a", address: 2))))
        #expect(tree.allParameters.map(\.keyPath) == ["g.a", "h.a"])
    }

    @Test func duplicateAddresses() {
        #expect(throws: ParameterTreeError.duplicateAddress(keyPath: "h.b", address: 7, otherKeyPath: "g.a")) {
            try load(file(group("g", parameter("a", address: 7)) + "," + group("h", parameter("b", address: 7))))
        }
    }

    @Test func duplicateJSONKeys() {
        let text = #"{"format": "knoblink-tree", "format": "x", "version": 1, "children": []}"#
        #expect(throws: ParameterTreeError.invalidJSON(offset: 28, reason: "duplicate key 'format'")) {
            try load(Array(text.utf8))
        }
    }

    @Test func deepNestingIsRefusedWithTheNode() {
        var node = parameter("leaf")
        for level in (0..<20).reversed() { node = group("g\(level)", node) }
        let keyPath = (0...16).map { "g\($0)" }.joined(separator: ".")
        #expect(throws: ParameterTreeError.tooDeep(keyPath: keyPath, limit: 16)) { try load(file(node)) }
    }

    @Test func hostileNestingGivesAnErrorNotACrash() {
        let brackets = String(repeating: "[", count: 100_000)
        #expect(throws: ParameterTreeError.self) { try load(file(brackets)) }
        let objects = String(repeating: #"{"a":"#, count: 100_000)
        #expect(throws: ParameterTreeError.self) { try load(Array(objects.utf8)) }
    }

    @Test func tooManyNodes() {
        let nodes = (0...ParameterTree.maximumNodeCount).map { parameter("p\($0)", address: $0) }
        #expect(throws: ParameterTreeError.tooMany(keyPath: "[10000]", field: "nodes", limit: 10_000)) {
            try load(file(nodes.joined(separator: ",")))
        }
    }

    @Test func tooManyValueStringsShortNamesOrCharacters() {
        let strings = (0...ParameterTree.maximumValueStrings).map { "\"v\($0)\"" }.joined(separator: ",")
        #expect(throws: ParameterTreeError.tooMany(keyPath: "a", field: "valueStrings", limit: 4096)) {
            try load(file(parameter("a", extra: ", \"valueStrings\": [\(strings)]")))
        }
        let names = (0...16).map { "\"n\($0)\"" }.joined(separator: ",")
        #expect(throws: ParameterTreeError.tooMany(keyPath: "a", field: "shortNames", limit: 16)) {
            try load(file(parameter("a", extra: ", \"shortNames\": [\(names)]")))
        }
        let long = String(repeating: "x", count: ParameterTree.maximumNameLength + 1)
        #expect(throws: ParameterTreeError.tooMany(keyPath: "a", field: "characters in displayName", limit: 256)) {
            try load(file(parameter("a", extra: ", \"displayName\": \"\(long)\"")))
        }
    }

    @Test func byteOrderMarkIsTolerated() throws {
        let tree = try load([0xEF, 0xBB, 0xBF] + file(parameter("a")))
        #expect(tree.parameter(forKeyPath: "a") != nil)
    }

    @Test func tooLarge() {
        let huge = [UInt8](repeating: 0x20, count: ParameterTree.maximumFileSize + 1)
        #expect(throws: ParameterTreeError.fileTooLarge(bytes: huge.count, limit: ParameterTree.maximumFileSize)) {
            try load(huge)
        }
    }

    @Test(arguments: [
        [UInt8]("{\"a\": \"\u{01}\"}".utf8), [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D],
        Array(#"{"a": "\ud800"}"#.utf8),
        Array(#"{"a": 01}"#.utf8), Array(#"{"a": 1.}"#.utf8), Array(#"{"a": tru}"#.utf8), Array(#"{"a": "x"#.utf8),
        [],
    ])
    func malformedJSONIsAnError(bytes: [UInt8]) {
        #expect {
            try load(bytes)
        } throws: { error in
            if case .invalidJSON = error as? ParameterTreeError { return true }
            return false
        }
    }

    @Test func unreadableFile() {
        let url = URL(fileURLWithPath: "/nonexistent/tree.json")
        #expect {
            try ParameterTree(contentsOf: url)
        } throws: { error in
            if case .unreadable(let path, _) = error as? ParameterTreeError { return path == url.path }
            return false
        }
    }

    @Test func specsAreCheckedLikeFiles() {
        let specs: [ParameterNodeSpec] = [
            .parameter(ParameterSpec(identifier: "a", displayName: "A", address: 1, minValue: .nan, maxValue: 1))
        ]
        #expect(throws: ParameterTreeError.self) { try ParameterTree(children: specs) }
        let reserved: [ParameterNodeSpec] = [.group("sys", "System", [])]
        #expect(throws: ParameterTreeError.reservedIdentifier(keyPath: "sys", identifier: "sys")) {
            try ParameterTree(children: reserved)
        }
    }

    @Test func errorMessagesNameNodeAndField() {
        let error = ParameterTreeError.wrongType(keyPath: "knob.gain", field: "min", expected: "a number")
        #expect(error.description == "'knob.gain': field 'min' must be a number")
    }
}
