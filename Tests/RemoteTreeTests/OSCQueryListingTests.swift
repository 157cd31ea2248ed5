import OSCQuery
import Parameters
import Testing

@testable import RemoteTree

/// The namespace on its own: JSON in, a listing and specs out, bounded, whatever the server sends.
@Suite struct OSCQueryListingTests {
    static func listing(_ json: String, maximumNodes: Int = 100, usesUnits: Bool = true) throws -> OSCQueryListing {
        let namespace = try OSCQueryJSONParser(maximumSize: 1 << 20, maximumDepth: 64).parse(json)
        return try OSCQueryListing(namespace: namespace, maximumNodes: maximumNodes, usesUnits: usesUnits)
    }

    static func tree(_ listing: OSCQueryListing) throws -> ParameterTree {
        try ParameterTree(children: try listing.listing.specs())
    }

    @Test func pythonOSCQueryStyleMethods() throws {
        // python-oscquery: no RANGE, a list VALUE, TYPE from the value, a string method.
        let read = try Self.listing(
            """
            {"FULL_PATH":"/","ACCESS":0,"CONTENTS":{"synth":{"FULL_PATH":"/synth","ACCESS":0,"CONTENTS":{
            "freq":{"FULL_PATH":"/synth/freq","VALUE":[440.0],"TYPE":"f","ACCESS":3,"DESCRIPTION":"Frequency"},
            "on":{"FULL_PATH":"/synth/on","VALUE":[true],"TYPE":"T","ACCESS":3},
            "level":{"FULL_PATH":"/synth/level","VALUE":[3],"TYPE":"i","ACCESS":1},
            "name":{"FULL_PATH":"/synth/name","VALUE":["x"],"TYPE":"s","ACCESS":3}}}}}
            """)
        #expect(read.paths == ["/synth/freq", "/synth/on", "/synth/level"])
        #expect(read.types == [.float, .boolean, .int])
        #expect(read.skipped == 1)
        let tree = try Self.tree(read)
        let freq = try #require(tree.parameter(forKeyPath: "synth.freq"))
        #expect(freq.minValue == 0 && freq.maxValue == 1000 && freq.value == 440 && freq.displayName == "Frequency")
        let on = try #require(tree.parameter(forKeyPath: "synth.on"))
        #expect(on.unit == .boolean && on.value == 1)
        let level = try #require(tree.parameter(forKeyPath: "synth.level"))
        #expect(level.maxValue == 127 && level.value == 3 && !level.isWritable)
    }

    @Test func rangesUnitsAndBooleans() throws {
        let json = """
            {"CONTENTS":{"cutoff":{"TYPE":"f","RANGE":[{"MIN":20,"MAX":20000}],"VALUE":[1000],"UNIT":"time.hz"},
            "gain":{"TYPE":"d","RANGE":{"MIN":-60,"MAX":12},"VALUE":-6,"UNIT":"gain.db"},
            "mute":{"TYPE":"f","EXTENDED_TYPE":"boolean","RANGE":[{"MIN":0,"MAX":1}],"VALUE":[1]},
            "below":{"TYPE":"f","VALUE":[-3]}}}
            """
        let tree = try Self.tree(try Self.listing(json))
        let cutoff = try #require(tree.parameter(forKeyPath: "cutoff"))
        #expect(cutoff.minValue == 20 && cutoff.maxValue == 20000 && cutoff.value == 1000 && cutoff.unit == .hertz)
        let gain = try #require(tree.parameter(forKeyPath: "gain"))
        #expect(gain.minValue == -60 && gain.value == -6 && gain.unit == .decibels)
        #expect(tree.parameter(forKeyPath: "mute")?.unit == .boolean)
        let below = try #require(tree.parameter(forKeyPath: "below"))
        #expect(below.minValue == -10 && below.maxValue == 10 && below.value == -3)
        // KnobLink's own UNIT describes the parameter, not its normalised value.
        let plain = try Self.tree(try Self.listing(json, usesUnits: false))
        #expect(plain.parameter(forKeyPath: "cutoff")?.unit == .generic)
        #expect(plain.parameter(forKeyPath: "mute")?.unit == .boolean)
    }

    @Test func namesThatAreNotIdentifiersAreMadeIntoOnesAndPathsKept() throws {
        let read = try Self.listing(
            """
            {"CONTENTS":{"sys":{"CONTENTS":{"a b":{"TYPE":"f"},"a_b":{"TYPE":"f"},"raw":{"TYPE":"f"}}},
            "é":{"TYPE":"f","FULL_PATH":"/é"}}}
            """)
        #expect(read.paths == ["/sys/a b", "/sys/a_b", "/sys/raw", "/é"])
        let tree = try Self.tree(read)
        #expect(tree.allParameters.map(\.keyPath) == ["_sys.a_b", "_sys.a_b_2", "_sys._raw", "__"])
    }

    @Test func whatCannotBeMirroredIsSkippedAndCounted() throws {
        let read = try Self.listing(
            """
            {"CONTENTS":{"same":{"TYPE":"f","RANGE":[{"MIN":1,"MAX":1}]},"upside":{"TYPE":"f","RANGE":[{"MIN":2,"MAX":-2}]},
            "pair":{"TYPE":"ff"},"blob":{"TYPE":"b"},"x":7,
            "parent":{"TYPE":"f","CONTENTS":{"child":{"TYPE":"f"}}}}}
            """)
        #expect(read.paths == ["/parent"])
        #expect(read.skipped == 6)
        _ = try Self.tree(read)
    }

    @Test func containersDeeperThanTheTreeAreSkipped() throws {
        var json = "{\"TYPE\":\"f\"}"
        for level in (0..<20).reversed() { json = "{\"CONTENTS\":{\"g\(level)\":\(json)}}" }
        let read = try Self.listing("{\"CONTENTS\":{\"top\":\(json),\"ok\":{\"TYPE\":\"f\"}}}")
        #expect(read.paths == ["/ok"])
        #expect(read.skipped == 1)
        _ = try Self.tree(read)
    }

    @Test func moreNodesThanTheLimitAreRefused() throws {
        let methods = (0..<20).map { "\"p\($0)\":{\"TYPE\":\"f\"}" }.joined(separator: ",")
        #expect(throws: RemoteListingError.self) { try Self.listing("{\"CONTENTS\":{\(methods)}}", maximumNodes: 10) }
        #expect(throws: RemoteListingError.self) { try Self.listing("[1,2]") }
    }

    @Test func theFirstValueReadIsTheDefault() throws {
        let namespace = try OSCQueryJSONParser().parse("{\"CONTENTS\":{\"a\":{\"TYPE\":\"f\",\"VALUE\":[0.7]}}}")
        let first = try OSCQueryListing(namespace: namespace, maximumNodes: 10)
        #expect(first.listing.entries[0].defaultValue == 0.7)
        let later = try OSCQueryListing(namespace: namespace, maximumNodes: 10, defaults: ["/a": 0.2])
        #expect(later.listing.entries[0].defaultValue == 0.2 && later.listing.entries[0].value == 0.7)
    }
}
