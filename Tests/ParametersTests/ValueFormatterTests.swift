import Foundation
import Testing

@testable import Parameters

@Suite struct ValueFormatterTests {
    @Test(arguments: [
        (12.5, "12"), (12.34, "12"), (1.23, "1.2"), (445, "440"), (455, "460"), (0.125, "0.12"), (1234.5, "1,200"),
        (12345, "12,000"), (99.95, "100"), (36, "36"), (18, "18"), (0, "0"),
    ])
    func oneToTwoSignificantDigits(value: Double, expected: String) {
        #expect(ValueFormatter.general().forDisplay(value) == expected)
    }

    @Test(arguments: [(12.5, "12.5"), (1234.5, "1,230"), (0.96101229, "0.961"), (1, "1"), (100, "100")])
    func oneToThreeSignificantDigits(value: Double, expected: String) {
        #expect(ValueFormatter.general(1...3).forDisplay(value) == expected)
    }

    @Test(arguments: [(12.34, "12.34"), (1234.5, "1,234")])
    func oneToFourSignificantDigits(value: Double, expected: String) {
        #expect(ValueFormatter.general(1...4).forDisplay(value) == expected)
    }

    @Test(arguments: [(20000, "20000"), (0.96101229, "0.961012"), (36, "36")])
    func editingUsesSixDigitsWithoutGrouping(value: Double, expected: String) {
        #expect(ValueFormatter.frequency().forEditing(value) == expected)
        #expect(ValueFormatter.general().forEditing(value) == expected)
    }

    @Test(arguments: [
        (ParameterUnit.percent, 50.0, "50%"), (.seconds, 0.25, "250ms"), (.seconds, 1.2013, "1.2s"),
        (.hertz, 440, "440 Hz"), (.hertz, 4812.6, "4.81kHz"), (.decibels, -6, "-6 dB"), (.degrees, 90, "90°"),
        (.phase, 180, "180°"), (.rate, 2, "2x"), (.cents, -12, "-12 cents"), (.absoluteCents, 1200, "1,200 cents"),
        (.bpm, 120, "120 BPM"), (.milliseconds, 250, "250ms"), (.generic, 12.34, "12"), (.boolean, 1, "1"),
        (.linearGain, 0.5, "0.5"),
    ])
    func unitMapping(unit: ParameterUnit, value: Double, expected: String) {
        #expect(ValueFormatter.for(unit).forDisplay(value) == expected)
    }

    @Test func negativeZeroShowsAsZero() {
        #expect(ValueFormatter.general().forDisplay(-0.0) == "0")
    }

    @Test func equalityComparesPairsAndStyle() {
        #expect(ValueFormatter.for(.percent) == .percentage())
        #expect(ValueFormatter.for(.percent) != .general(1...3))
        #expect(ValueFormatter.for(.decibels) == .general(suffix: " dB"))
    }

    @Test func parameterStringsUseValueStringsAndASCII() throws {
        let tree = try ParameterTree(children: [
            .parameter(
                ParameterSpec(
                    identifier: "shape", displayName: "Shape", address: 1, minValue: 1, maxValue: 3, unit: .indexed,
                    flags: [.readable, .writable, .valuesHaveStrings], valueStrings: ["Sine", "Square", "Saw"])),
            .parameter(
                ParameterSpec(
                    identifier: "angle", displayName: "Angle", address: 2, minValue: 0, maxValue: 360,
                    defaultValue: 90, unit: .degrees)),
        ])
        let shape = try #require(tree.parameter(withAddress: 1))
        #expect(shape.string(fromValue: 2) == "Square")
        #expect(shape.string() == "Sine")
        let angle = try #require(tree.parameter(withAddress: 2))
        #expect(angle.string() == "90°")
        #expect(angle.asciiDisplayString() == "90deg")
        #expect(try angle.value(fromString: angle.asciiDisplayString()) == 90)
        #expect(angle.editingString() == "90")
    }
}
