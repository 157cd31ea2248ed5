import OSCCore
import Parameters
import Testing

@testable import RemoteTree

/// The listing on its own: messages in, specs out, bounded.
@Suite struct RemoteListingTests {
    static func param(_ address: String, unit: String = "", min: Float = 0, max: Float = 1) -> OSCMessage {
        OSCMessage(
            "/sys/param",
            [
                .string(address), .string("Name"), .string(unit), .float32(min), .float32(max), .float32(min),
                .float32(min),
            ])
    }

    static func info(_ address: String, taper: String, flags: UInt32, strings: [String] = []) -> OSCMessage {
        OSCMessage(
            address + "/info",
            [
                .string("Name"), .string(""), .float32(0), .float32(1), .float32(0), .string(taper),
                .int32(Int32(bitPattern: flags)),
            ] + strings.map { .string($0) })
    }

    @Test(arguments: [
        ("boolean", ParameterUnit.boolean), ("indexed", .indexed), ("", .generic), ("dB", .decibels),
        ("Hz", .hertz), ("ms", .milliseconds), ("%", .percent), ("BPM", .bpm), ("furlongs", .customUnit),
    ])
    func unitsReadAsTheServerNamesThem(text: String, unit: ParameterUnit) {
        #expect(ParameterUnit.remote(text).unit == unit)
    }

    @Test func groupsComeFromAddressesAndAreNamedFromSysGroups() throws {
        var listing = RemoteListing(maximumNodes: 100)
        try listing.addGroup(OSCMessage("/sys/group", [.string("/knob"), .string("Knobs")]))
        try listing.addParameter(Self.param("/knob/gain", unit: "dB", min: -60, max: 12))
        try listing.addParameter(Self.param("/env/amp/attack", unit: "s"))
        try listing.addParameter(Self.param("/solo", unit: "boolean"))
        let tree = try ParameterTree(children: listing.specs())
        #expect(tree.allParameters.map(\.oscAddress) == ["/knob/gain", "/env/amp/attack", "/solo"])
        #expect(tree.allGroups.map(\.displayName) == ["Knobs", "env", "amp"])
        #expect(tree.parameter(forKeyPath: "knob.gain")?.unit == .decibels)
        #expect(tree.parameter(forKeyPath: "solo")?.unit == .boolean)
    }

    @Test func infoInPartsAddsValueStringsAndSetsTaperAndFlags() throws {
        var listing = RemoteListing(maximumNodes: 100)
        try listing.addParameter(Self.param("/mode", unit: "indexed", min: 0, max: 3))
        let flags = ParameterFlags([.readable, .displayLogarithmic]).rawValue
        #expect(try listing.addInfo(Self.info("/mode", taper: "logarithmic", flags: flags, strings: ["A", "B"])))
        #expect(try !listing.addInfo(Self.info("/mode", taper: "logarithmic", flags: flags, strings: ["C", "D"])))
        #expect(try !listing.addInfo(Self.info("/unknown", taper: "linear", flags: 0)))
        let tree = try ParameterTree(children: listing.specs())
        let mode = try #require(tree.parameter(forKeyPath: "mode"))
        #expect(mode.valueStrings == ["A", "B", "C", "D"])
        #expect(mode.taper == .logarithmic)
        #expect(!mode.isWritable)
    }

    @Test func aRepeatedParameterDoesNotGrowTheListAndTheLimitHolds() throws {
        var listing = RemoteListing(maximumNodes: 3)
        for _ in 0..<100 { try listing.addParameter(Self.param("/a")) }
        #expect(listing.entries.count == 1)
        try listing.addParameter(Self.param("/b"))
        try listing.addParameter(Self.param("/c"))
        #expect(throws: RemoteListingError.self) { try listing.addParameter(Self.param("/d")) }
        #expect(listing.entries.count == 3)
    }

    @Test func aParameterUnderAParameterIsRefused() throws {
        var listing = RemoteListing(maximumNodes: 10)
        try listing.addParameter(Self.param("/a"))
        try listing.addParameter(Self.param("/a/b"))
        #expect(throws: RemoteListingError.self) { try listing.specs() }
    }

    @Test func malformedMessagesAreRefused() {
        var listing = RemoteListing(maximumNodes: 10)
        #expect(throws: RemoteListingError.self) { try listing.addParameter(OSCMessage("/sys/param", [.int32(1)])) }
        #expect(throws: RemoteListingError.self) { try listing.addGroup(OSCMessage("/sys/group", [])) }
    }
}
