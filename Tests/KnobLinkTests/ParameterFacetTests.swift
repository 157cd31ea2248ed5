import KnobLink
import OSCCore
import Parameters
import Testing

/// PROTOCOL.md section 2: every facet of a parameter address, corrections and errors.
@Suite struct ParameterFacetTests {
    /// Without implicit subscriptions, a peer gets only the replies these tests look at.
    let noImplicit: (inout KnobLinkServer.Configuration) -> Void = { $0.implicitSubscriptions = false }

    @Test func normalisedSetAppliesAndQueryAnswers() async throws {
        let fixture = try ServerFixture(noImplicit)
        let peer = try fixture.peer()
        peer.send("/knob/pan", [.float32(0.75)])
        let reply = await peer.request("/knob/pan", reply: "/knob/pan")
        #expect(reply?.float == 0.75)
        #expect(fixture.tree.parameter(forKeyPath: "knob.pan")!.value == 25)
    }

    @Test(arguments: [
        OSCArgument.double(0.25), .int32(1), .int64(0), .true, .false,
    ])
    func everyNumericTypeSets(argument: OSCArgument) async throws {
        let fixture = try ServerFixture(noImplicit)
        let peer = try fixture.peer()
        peer.send("/knob/pan", [argument])
        await peer.sync()
        let expected: Float =
            switch argument {
            case .double(let value): Float(-50 + 100 * value)
            case .int32(let value): Float(-50 + 100 * Int(value))
            case .int64(let value): Float(-50 + 100 * Int(value))
            case .true: 50
            default: -50
            }
        #expect(fixture.tree.parameter(forKeyPath: "knob.pan")!.value == expected)
    }

    @Test func clampedSetGetsOneCorrection() async throws {
        let fixture = try ServerFixture(noImplicit)
        let peer = try fixture.peer()
        peer.send("/knob/pan", [.float32(1.7)])
        await peer.sync()
        let corrections = peer.messages("/knob/pan")
        #expect(corrections.count == 1)
        #expect(corrections.first?.float == 1)
        // Rule 9.5: a correction even though the value does not change.
        peer.clear()
        peer.send("/knob/pan", [.float32(1.7)])
        await peer.sync()
        #expect(peer.messages("/knob/pan").map(\.float) == [1])
    }

    @Test func exactSetGetsNoCorrection() async throws {
        let fixture = try ServerFixture(noImplicit)
        let peer = try fixture.peer()
        peer.send("/knob/pan", [.float32(0.5)])
        peer.send("/knob/pan", [.float32(0.25)])
        await peer.sync()
        #expect(peer.messages("/knob/pan").isEmpty)
    }

    @Test func quantisedBooleanGetsCorrection() async throws {
        let fixture = try ServerFixture(noImplicit)
        let peer = try fixture.peer()
        peer.send("/toggle/retrigger", [.float32(0.7)])
        await peer.sync()
        #expect(peer.messages("/toggle/retrigger").map(\.float) == [1])
        #expect(fixture.tree.parameter(forKeyPath: "toggle.retrigger")!.value == 1)
    }

    @Test func infinityClampsAndNaNIsRefused() async throws {
        let fixture = try ServerFixture(noImplicit)
        let peer = try fixture.peer()
        peer.send("/knob/gain/raw", [.float32(-.infinity)])
        await peer.sync()
        #expect(fixture.tree.parameter(forKeyPath: "knob.gain")!.value == -60)
        #expect(peer.messages("/knob/gain/raw").map(\.float) == [-60])
        peer.clear()
        peer.send("/knob/gain/raw", [.float32(.nan)])
        await peer.sync()
        #expect(fixture.tree.parameter(forKeyPath: "knob.gain")!.value == -60)
        #expect(peer.messages("/sys/error").first?.arguments == [.string("/knob/gain/raw"), .string("NaN refused")])
        #expect(peer.messages("/knob/gain/raw").isEmpty)
    }

    @Test func rawSetAndQuery() async throws {
        let fixture = try ServerFixture(noImplicit)
        let peer = try fixture.peer()
        peer.send("/knob/gain/raw", [.float32(-6)])
        let reply = await peer.request("/knob/gain/raw", reply: "/knob/gain/raw")
        #expect(reply?.float == -6)
        peer.clear()
        peer.send("/knob/gain/raw", [.float32(20)])
        #expect(await peer.next("/knob/gain/raw")?.float == 12)
    }

    @Test func stringSetQueryAndErrors() async throws {
        let fixture = try ServerFixture(noImplicit)
        let peer = try fixture.peer()
        peer.send("/knob/gain/str", [.string("-6 dB")])
        let reply = await peer.request("/knob/gain/str", reply: "/knob/gain/str")
        #expect(reply?.string == "-6 dB")
        #expect(fixture.tree.parameter(forKeyPath: "knob.gain")!.value == -6)
        peer.clear()
        peer.send("/knob/frequency/str", [.string("1.2kHz")])
        await peer.sync()
        #expect(fixture.tree.parameter(forKeyPath: "knob.frequency")!.value == 1200)
        #expect(peer.messages("/knob/frequency/str").isEmpty)
        peer.send("/knob/gain/str", [.string("loud")])
        let error = await peer.next("/sys/error")
        #expect(error?.arguments.first == .string("/knob/gain/str"))
        #expect(fixture.tree.parameter(forKeyPath: "knob.gain")!.value == -6)
    }

    @Test func stringCorrectionIsJudgedOnTheValue() async throws {
        let fixture = try ServerFixture(noImplicit)
        let peer = try fixture.peer()
        peer.send("/knob/gain/str", [.string("+40 dB")])
        #expect(await peer.next("/knob/gain/str")?.string == "12 dB")
    }

    @Test func touchAliasResetGetAndInfo() async throws {
        let fixture = try ServerFixture(noImplicit)
        let peer = try fixture.peer()
        let gain = fixture.tree.parameter(forKeyPath: "knob.gain")!
        gain.setValue(-12)
        peer.send("/knob/gain/reset", [.float32(0)])
        await peer.sync()
        #expect(gain.value == -12)
        peer.send("/knob/gain/reset")
        await peer.sync()
        #expect(gain.value == 0)
        let reply = await peer.request("/knob/gain/get", reply: "/knob/gain")
        #expect(reply?.float == Float(gain.normalizedValue))
        let gainInfo = await peer.request("/knob/gain/info", reply: "/knob/gain/info")
        #expect(
            gainInfo?.arguments == [
                .string("Gain"), .string("dB"), .float32(-60), .float32(12), .float32(0), .string("linear"),
                .int32(Int32(bitPattern: gain.flags.rawValue)),
            ])
        let toggleInfo = await peer.request("/toggle/retrigger/info", reply: "/toggle/retrigger/info")
        #expect(toggleInfo?.arguments[1] == .string("boolean"))
    }

    @Test func getAndInfoReplyToAGivenURL() async throws {
        let fixture = try ServerFixture(noImplicit)
        let sender = try fixture.peer()
        let listener = try fixture.peer()
        sender.send("/knob/frequency/get", [.string(listener.url)])
        let reply = await listener.next("/knob/frequency")
        #expect(reply != nil)
        sender.send("/knob/frequency/info", [.string(listener.url)])
        let info = await listener.next("/knob/frequency/info")
        #expect(info?.arguments[5] == .string("logarithmic"))
    }

    @Test func infoListsValueStringsOfIndexedParameters() async throws {
        let tree = try ParameterTree(children: [
            .parameter(
                ParameterSpec(
                    identifier: "shape", displayName: "Shape", address: 1, minValue: 0, maxValue: 2,
                    defaultValue: 0, unit: .indexed, flags: [.readable, .writable, .valuesHaveStrings],
                    valueStrings: ["Sine", "Square", "Saw"]))
        ])
        let fixture = try ServerFixture(tree: tree, noImplicit)
        let peer = try fixture.peer()
        let info = await peer.request("/shape/info", reply: "/shape/info")
        #expect(info?.arguments.suffix(3) == [.string("Sine"), .string("Square"), .string("Saw")])
        // Rule 9.4: the unit says what kind of control to draw.
        #expect(info?.arguments[1] == .string("indexed"))
        peer.send("/shape/str", [.string("saw")])
        await peer.sync()
        #expect(tree.parameter(forKeyPath: "shape")!.value == 2)
    }

    @Test func readOnlyParameterRefusesWrites() async throws {
        let tree = try ParameterTree(children: [
            .parameter(
                ParameterSpec(
                    identifier: "meter", displayName: "Meter", address: 1, minValue: 0, maxValue: 1,
                    defaultValue: 0, flags: [.readable]))
        ])
        let fixture = try ServerFixture(tree: tree, noImplicit)
        let peer = try fixture.peer()
        peer.send("/meter", [.float32(0.5)])
        let error = await peer.next("/sys/error")
        #expect(error?.arguments == [.string("/meter"), .string("read-only parameter")])
        #expect(tree.parameter(forKeyPath: "meter")!.value == 0)
        #expect(fixture.statistic("readOnlyRefused") == 1)
        let query = await peer.request("/meter", reply: "/meter")
        #expect(query?.float == 0)
    }

    @Test func unknownAddressAndBadTypesGetErrors() async throws {
        let fixture = try ServerFixture(noImplicit)
        let peer = try fixture.peer()
        peer.send("/knob/nothing", [.float32(1)])
        #expect(await peer.next("/sys/error")?.arguments == [.string("/knob/nothing"), .string("unknown address")])
        #expect(fixture.statistic("unknownAddress") == 1)
        try await Task.sleep(for: .milliseconds(1100))
        peer.clear()
        peer.send("/knob/gain", [.string("x")])
        let error = await peer.next("/sys/error")
        #expect(error?.arguments.first == .string("/knob/gain"))
        #expect(fixture.statistic("badArguments") == 1)
    }

    @Test func patternsReachEveryMatchingParameter() async throws {
        let fixture = try ServerFixture(noImplicit)
        let peer = try fixture.peer()
        peer.send("/amp/{attack,decay}/raw", [.float32(1)])
        await peer.sync()
        #expect(fixture.tree.parameter(forKeyPath: "amp.attack")!.value == 1)
        #expect(fixture.tree.parameter(forKeyPath: "amp.decay")!.value == 1)
        #expect(fixture.tree.parameter(forKeyPath: "mod.attack")!.value != 1)
    }

    @Test func rootPrefixesParametersButNotSystemMessages() async throws {
        let fixture = try ServerFixture {
            $0.root = "/inst1"
            $0.implicitSubscriptions = false
        }
        let peer = try fixture.peer()
        peer.send("/inst1/knob/pan", [.float32(1)])
        await peer.sync()
        #expect(fixture.tree.parameter(forKeyPath: "knob.pan")!.value == 50)
        peer.send("/knob/pan", [.float32(0)])
        #expect(await peer.next("/sys/error")?.arguments.first == .string("/knob/pan"))
    }
}
