import HTTPCore
import OSCQuery
import Parameters
import Testing

@Suite struct OSCQueryNamespaceTests {
    private func namespace(_ tree: ParameterTree, root: String = "") -> OSCQueryNamespace {
        OSCQueryNamespace(tree: tree, rootPrefix: root)
    }

    private func root(_ namespace: OSCQueryNamespace) throws -> OSCQueryJSON {
        try Fixtures.json(namespace.response(to: Fixtures.get("/"), hostInfo: Fixtures.hostInfo))
    }

    @Test func theRootIsAContainerOfTheGroups() throws {
        let json = try root(namespace(ParameterTree.makeDefault()))
        guard case .object(let members) = json else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["FULL_PATH", "ACCESS", "CONTENTS"])
        #expect(json["FULL_PATH"] == .string("/"))
        #expect(json["ACCESS"] == .int(0))
        guard case .object(let groups) = json["CONTENTS"] else {
            Issue.record("no CONTENTS")
            return
        }
        #expect(groups.map(\.key) == ["knob", "toggle", "amp", "mod"])
        let knob = json["CONTENTS"]?["knob"]
        #expect(knob?["FULL_PATH"] == .string("/knob"))
        #expect(knob?["ACCESS"] == .int(0))
        #expect(knob?["DESCRIPTION"] == .string("Knob"))
        guard case .object(let parameters) = knob?["CONTENTS"] else {
            Issue.record("knob has no CONTENTS")
            return
        }
        #expect(parameters.map(\.key) == ["gain", "frequency", "pan"])
    }

    @Test func aParameterIsAMethodWithItsNormalisedValue() throws {
        let tree = ParameterTree.makeDefault()
        let gain = try #require(tree.parameter(forOSCAddress: "/knob/gain"))
        gain.setValue(-6)
        let json = try root(namespace(tree))["CONTENTS"]?["knob"]?["CONTENTS"]?["gain"]
        let expected = OSCQueryJSON.object([
            ("FULL_PATH", .string("/knob/gain")), ("TYPE", .string("f")),
            ("VALUE", .array([Fixtures.number(Float(gain.normalizedValue))])),
            ("RANGE", .array([.object([("MIN", .int(0)), ("MAX", .int(1))])])), ("ACCESS", .int(3)),
            ("CLIPMODE", .string("both")), ("DESCRIPTION", .string("Gain")), ("UNIT", .string("gain.db")),
        ])
        #expect(json == expected)
        #expect(Float(gain.normalizedValue) == 0.75)
    }

    @Test func valuesAreReadWhenAsked() throws {
        let tree = ParameterTree.makeDefault()
        let space = namespace(tree)
        let frequency = try #require(tree.parameter(forOSCAddress: "/knob/frequency"))
        for value: Float in [10, 440, 20000] {
            frequency.setValue(value)
            let json = try Fixtures.json(
                space.response(to: Fixtures.get("/knob/frequency", query: "VALUE"), hostInfo: Fixtures.hostInfo))
            #expect(json == .object([("VALUE", .array([Fixtures.number(Float(frequency.normalizedValue))]))]))
        }
        #expect(frequency.normalizedValue == 1)
    }

    @Test func unitsMapToOSCQueryNamesOrAreAbsent() throws {
        let space = namespace(ParameterTree.makeDefault())
        let json = try root(space)
        #expect(json["CONTENTS"]?["knob"]?["CONTENTS"]?["frequency"]?["UNIT"] == .string("time.hz"))
        #expect(json["CONTENTS"]?["amp"]?["CONTENTS"]?["attack"]?["UNIT"] == .string("time.second"))
        #expect(json["CONTENTS"]?["knob"]?["CONTENTS"]?["pan"]?["UNIT"] == nil)
        #expect(json["CONTENTS"]?["amp"]?["CONTENTS"]?["sustain"]?["UNIT"] == nil)
        let voices = try root(namespace(try Fixtures.twoVoices()))
        #expect(voices["CONTENTS"]?["master"]?["CONTENTS"]?["tempo"]?["UNIT"] == .string("time.bpm"))
        #expect(voices["CONTENTS"]?["master"]?["CONTENTS"]?["level"]?["UNIT"] == .string("gain.linear"))
    }

    @Test(arguments: [
        (ParameterUnit.decibels, "gain.db"), (.linearGain, "gain.linear"), (.hertz, "time.hz"),
        (.seconds, "time.second"),
        (.milliseconds, "time.ms"), (.sampleFrames, "time.samples"), (.bpm, "time.bpm"), (.absoluteCents, "time.cents"),
        (.midiNoteNumber, "time.midinote"), (.degrees, "angle.degree"), (.phase, "angle.degree"),
    ])
    func theUnitTable(unit: ParameterUnit, name: String) {
        #expect(unit.oscQueryUnit == name)
    }

    @Test func unitsWithoutACounterpartHaveNoName() {
        let named: Set<ParameterUnit> = [
            .decibels, .linearGain, .hertz, .seconds, .milliseconds, .sampleFrames, .bpm, .absoluteCents,
            .midiNoteNumber,
            .degrees, .phase,
        ]
        for unit in ParameterUnit.allCases where !named.contains(unit) {
            #expect(unit.oscQueryUnit == nil, "\(unit)")
        }
    }

    @Test func aReadOnlyParameterHasAccessOne() throws {
        let json = try root(namespace(try Fixtures.twoVoices()))
        #expect(json["CONTENTS"]?["master"]?["CONTENTS"]?["level"]?["ACCESS"] == .int(1))
        #expect(json["CONTENTS"]?["master"]?["CONTENTS"]?["volume"]?["ACCESS"] == .int(3))
    }

    @Test func booleansHaveAnExtendedType() throws {
        let tree = ParameterTree.makeDefault()
        tree.parameter(forOSCAddress: "/toggle/monophonic")?.setValue(1)
        let json = try root(namespace(tree))["CONTENTS"]?["toggle"]?["CONTENTS"]
        #expect(json?["monophonic"]?["EXTENDED_TYPE"] == .string("boolean"))
        #expect(json?["monophonic"]?["VALUE"] == .array([.double(1)]))
        #expect(json?["retrigger"]?["VALUE"] == .array([.double(0)]))
        #expect(json?["retrigger"]?["RANGE"] == .array([.object([("MIN", .int(0)), ("MAX", .int(1))])]))
    }

    @Test func indexedParametersListTheirStepsAsVALS() throws {
        let tree = try Fixtures.twoVoices()
        let wave = try #require(tree.parameter(forOSCAddress: "/voice1/wave"))
        wave.setValue(2)
        let json = try root(namespace(tree))["CONTENTS"]?["voice1"]?["CONTENTS"]?["wave"]
        #expect(json?["EXTENDED_TYPE"] == .string("indexed"))
        let steps = (0..<4).map { Fixtures.number(Float(wave.normalize(Float($0)))) }
        #expect(json?["RANGE"] == .array([.object([("MIN", .int(0)), ("MAX", .int(1)), ("VALS", .array(steps))])]))
        #expect(steps.first == .double(0) && steps.last == .double(1))
        #expect(json?["VALUE"] == .array([steps[2]]))
    }

    @Test func withARootPrefixPathsCarryItUnderContainersOfItsOwn() throws {
        let space = namespace(ParameterTree.makeDefault(), root: "/studio/inst1/")
        #expect(space.rootPrefix == "/studio/inst1")
        let json = try root(space)
        #expect(json["FULL_PATH"] == .string("/"))
        let studio = json["CONTENTS"]?["studio"]
        #expect(studio?["FULL_PATH"] == .string("/studio"))
        #expect(studio?["ACCESS"] == .int(0))
        let instance = studio?["CONTENTS"]?["inst1"]
        #expect(instance?["FULL_PATH"] == .string("/studio/inst1"))
        #expect(
            instance?["CONTENTS"]?["knob"]?["CONTENTS"]?["gain"]?["FULL_PATH"] == .string("/studio/inst1/knob/gain"))
        #expect(space.contains(path: "/studio/inst1/knob/gain"))
        #expect(!space.contains(path: "/knob/gain"))
    }

    @Test func sysAndWaveAreNotInTheNamespace() {
        let space = namespace(ParameterTree.makeDefault())
        #expect(!space.paths.contains { $0.hasPrefix("/sys") || $0.hasPrefix("/wave") })
        #expect(!space.contains(path: "/sys"))
        #expect(space.paths.count == ParameterTree.makeDefault().allParameters.count + 4)
    }

    @Test func pathsAreDepthFirstContainersFirst() {
        let space = namespace(ParameterTree.makeDefault(), root: "/inst1")
        #expect(
            Array(space.paths.prefix(5)) == [
                "/inst1", "/inst1/knob", "/inst1/knob/gain", "/inst1/knob/frequency", "/inst1/knob/pan",
            ])
    }

    @Test func listenPathsResolveToParameterIndices() throws {
        let tree = ParameterTree.makeDefault()
        let space = namespace(tree)
        let gain = try #require(tree.parameter(forOSCAddress: "/knob/gain"))
        #expect(space.parameterIndices(listeningTo: "/knob/gain") == gain.index..<gain.index + 1)
        #expect(space.parameterIndices(listeningTo: "/knob") == 0..<3)
        #expect(space.parameterIndices(listeningTo: "/knob/") == 0..<3)
        #expect(space.parameterIndices(listeningTo: "/amp") == tree.node(forKeyPath: "amp")?.group?.parameterRange)
        #expect(space.parameterIndices(listeningTo: "/") == 0..<tree.allParameters.count)
        #expect(space.parameterIndices(listeningTo: "/nope") == nil)
        #expect(space.parameterIndices(listeningTo: "/knob/gain/raw") == nil)
        #expect(space.parameterIndices(listeningTo: "knob") == nil)
    }

    @Test func listenPathsCarryTheRootPrefix() {
        let tree = ParameterTree.makeDefault()
        let space = namespace(tree, root: "/inst1")
        #expect(space.parameterIndices(listeningTo: "/inst1/knob/pan") == 2..<3)
        #expect(space.parameterIndices(listeningTo: "/inst1") == 0..<tree.allParameters.count)
        #expect(space.parameterIndices(listeningTo: "/") == 0..<tree.allParameters.count)
        #expect(space.parameterIndices(listeningTo: "/knob/pan") == nil)
    }

    @Test func anEmptyGroupAndAnEmptyTreeAreEmptyContainers() throws {
        let tree = try ParameterTree(children: [
            ParameterTree.createGroup(withIdentifier: "empty", name: "Empty", children: [])
        ])
        let json = try root(namespace(tree))
        #expect(json["CONTENTS"]?["empty"]?["CONTENTS"] == .object([]))
        let none = try root(namespace(try ParameterTree(children: [])))
        #expect(none == .object([("FULL_PATH", .string("/")), ("ACCESS", .int(0)), ("CONTENTS", .object([]))]))
    }

    @Test func descriptionsAreEscaped() throws {
        let tree = try ParameterTree(children: [
            ParameterTree.createParameter(
                withIdentifier: "q", name: "Say \"Q\"\tnow", address: 1, min: 0, max: 1, unit: .generic,
                flags: [.readable, .writable])
        ])
        let json = try root(namespace(tree))
        #expect(json["CONTENTS"]?["q"]?["DESCRIPTION"] == .string("Say \"Q\"\tnow"))
    }

    @Test func theFileTreeAndTheEmbeddedOneGiveTheSameNamespace() throws {
        let embedded = try root(namespace(ParameterTree.makeDefault()))
        let file = try root(namespace(try Fixtures.defaultFile()))
        #expect(embedded == file)
    }
}
