import Foundation
import Testing

@testable import Parameters

@Suite struct ParameterValueTests {
    private func makeTree() throws -> ParameterTree {
        try ParameterTree(children: [
            .parameter(
                ParameterSpec(
                    identifier: "gain", displayName: "Gain", address: 1, minValue: -60, maxValue: 12, defaultValue: 0,
                    unit: .decibels)),
            .parameter(
                ParameterSpec(identifier: "on", displayName: "On", address: 2, minValue: 0, maxValue: 1, unit: .boolean)
            ),
            .parameter(
                ParameterSpec(
                    identifier: "mode", displayName: "Mode", address: 3, minValue: 0, maxValue: 3, unit: .indexed,
                    valueStrings: ["A", "B", "C", "D"])),
            .parameter(
                ParameterSpec(
                    identifier: "freq", displayName: "Freq", address: 4, minValue: 10, maxValue: 20000,
                    defaultValue: 440, unit: .hertz, flags: [.readable, .writable, .displayLogarithmic])),
            .parameter(
                ParameterSpec(identifier: "flat", displayName: "Flat", address: 5, minValue: 7, maxValue: 7)),
        ])
    }

    @Test func startsAtDefaults() throws {
        let tree = try makeTree()
        #expect(tree.snapshotValues() == [0, 0, 0, 440, 7])
    }

    @Test func clampsToTheRange() throws {
        let gain = try #require(try makeTree().parameter(withAddress: 1))
        #expect(gain.setValue(20) == .changed(from: 0, to: 12))
        #expect(gain.value == 12)
        #expect(gain.setValue(-100) == .changed(from: 12, to: -60))
        #expect(gain.setValue(.infinity).appliedValue == 12)
        #expect(gain.setValue(-.infinity).appliedValue == -60)
    }

    @Test func refusesNaN() throws {
        let gain = try #require(try makeTree().parameter(withAddress: 1))
        gain.setValue(-6)
        #expect(gain.setValue(.nan) == .refused)
        #expect(gain.setNormalizedValue(.nan) == .refused)
        #expect(gain.value == -6)
    }

    @Test(arguments: [(Float(0.49), Float(0)), (0.5, 1), (0.2, 0), (7, 1), (-1, 0)])
    func booleansQuantise(input: Float, expected: Float) throws {
        let toggle = try #require(try makeTree().parameter(withAddress: 2))
        #expect(toggle.setValue(input).appliedValue == expected)
    }

    @Test(arguments: [(Float(1.4), Float(1)), (1.5, 2), (2.6, 3), (9, 3), (-3, 0)])
    func indexedQuantise(input: Float, expected: Float) throws {
        let mode = try #require(try makeTree().parameter(withAddress: 3))
        #expect(mode.setValue(input).appliedValue == expected)
    }

    @Test func unchangedValueIsReported() throws {
        let gain = try #require(try makeTree().parameter(withAddress: 1))
        #expect(gain.setValue(0) == .unchanged(0))
        #expect(!gain.setValue(0).changed)
        #expect(gain.setValue(1).changed)
    }

    @Test func normalisedValuesUseTheTaper() throws {
        let tree = try makeTree()
        let freq = try #require(tree.parameter(withAddress: 4))
        freq.setNormalizedValue(0)
        #expect(freq.value == 10)
        freq.setNormalizedValue(1)
        #expect(freq.value == 20000)
        freq.setNormalizedValue(0.5)
        let expected = (pow(10, 0.5) - 1) / 9 * 19990 + 10
        #expect(abs(Double(freq.value) - expected) < 0.01)
        #expect(abs(freq.normalizedValue - 0.5) < 1e-6)
        freq.setNormalizedValue(7)
        #expect(freq.value == 20000)
        freq.setNormalizedValue(-.infinity)
        #expect(freq.value == 10)
    }

    @Test func emptyRangeHasNormZero() throws {
        let flat = try #require(try makeTree().parameter(withAddress: 5))
        #expect(flat.normalizedValue == 0)
        #expect(flat.setNormalizedValue(0.5).appliedValue == 7)
        #expect(!flat.normalizedValue.isNaN)
    }

    @Test func resetReturnsToDefault() throws {
        let tree = try makeTree()
        let freq = try #require(tree.parameter(withAddress: 4))
        freq.setValue(1000)
        freq.reset()
        #expect(freq.value == 440)
        tree.allParameters[0].setValue(-3)
        tree.resetAll()
        #expect(tree.snapshotValues() == [0, 0, 0, 440, 7])
    }

    @Test func lookups() throws {
        let tree = ParameterTree.makeDefault()
        let gain = try #require(tree.parameter(forOSCAddress: "/knob/gain"))
        #expect(gain.keyPath == "knob.gain")
        #expect(tree.parameter(forKeyPath: "knob.gain") === gain)
        #expect(tree.parameter(withAddress: gain.address) === gain)
        #expect(tree.parameter(forOSCAddress: "/knob") == nil)
        #expect(tree.parameter(forKeyPath: "knob") == nil)
        #expect(tree.node(forKeyPath: "knob")?.group?.children.count == 3)
        #expect(tree.parameter(withAddress: 999) == nil)
        #expect(tree.allParameters.map(\.index) == Array(0..<tree.allParameters.count))
        let amp = try #require(tree.node(forKeyPath: "amp")?.group)
        #expect(amp.allParameters.map(\.keyPath).first == "amp.delay")
        #expect(amp.child(withIdentifier: "sustain")?.parameter?.unit == .percent)
    }

    @Test func displayNameByLength() throws {
        let tree = ParameterTree.makeDefault()
        let frequency = try #require(tree.parameter(forKeyPath: "knob.frequency"))
        #expect(frequency.displayName(withLength: 20) == "Frequency")
        #expect(frequency.displayName(withLength: 5) == "Freq")
        #expect(frequency.displayName(withLength: 2) == "Fr")
        tree.implementorDisplayNameWithLengthCallback = { node, length in "\(node.identifier):\(length)" }
        #expect(frequency.displayName(withLength: 3) == "frequency:3")
        #expect(tree.allGroups[0].displayName(withLength: 3) == "knob:3")
    }

    @Test func unitsAndFlags() {
        #expect(ParameterUnit.allCases.count == 28)
        #expect(ParameterUnit(rawOrGeneric: 99) == .generic)
        #expect(ParameterUnit(rawOrGeneric: 13) == .decibels)
        #expect(ParameterUnit(name: "BPM") == .bpm)
        #expect(Set(ParameterUnit.allCases.map(\.name)).count == 28)
        #expect(ParameterFlags.displayLogarithmic.rawValue == 1 << 22)
        #expect(ParameterFlags.writable.rawValue == 1 << 31)
        #expect(ParameterFlags.displayMask.rawValue == 0x47_0000)
        for taper in ParameterTaper.allCases {
            var flags: ParameterFlags = [.readable, .canRamp]
            flags.taper = taper
            #expect(flags.taper == taper)
            #expect(flags.contains([.readable, .canRamp]))
        }
        #expect(ParameterFlags(rawValue: 5 << 16).taper == .exponential)
    }
}
