import Foundation
import Testing

@testable import Parameters

@Suite struct ValueParserTests {
    @Test(arguments: [
        (ParameterUnit.decibels, "-6 dB", -6.0), (.decibels, "-6", -6), (.decibels, "-6dB", -6),
        (.decibels, " +3.5 db ", 3.5), (.decibels, "\u{2212}12 dB", -12), (.hertz, "1.2kHz", 1200),
        (.hertz, "440 Hz", 440), (.hertz, "4.81 kHz", 4810), (.hertz, "1,200 Hz", 1200), (.hertz, "20000", 20000),
        (.seconds, "250ms", 0.25), (.seconds, "1.2s", 1.2), (.seconds, "2", 2), (.milliseconds, "1.5 s", 1500),
        (.milliseconds, "250ms", 250), (.percent, "50%", 50), (.degrees, "90°", 90), (.degrees, "90deg", 90),
        (.cents, "-12 cents", -12), (.bpm, "120 BPM", 120), (.rate, "2x", 2), (.generic, "1e3", 1000),
        (.generic, ".5", 0.5), (.boolean, "on", 1), (.boolean, "Off", 0), (.boolean, "true", 1),
    ])
    func parsesDisplayText(unit: ParameterUnit, text: String, expected: Double) throws {
        let value = try ValueParser(unit: unit).parse(text)
        #expect(abs(value - expected) < 1e-9)
    }

    @Test func infinityParses() throws {
        #expect(try ValueParser(unit: .decibels).parse("-inf dB") == -.infinity)
        #expect(try ValueParser(unit: .generic).parse("inf") == .infinity)
    }

    @Test func valueStringsParseToTheirIndex() throws {
        let parser = ValueParser(unit: .indexed, valueStrings: ["Sine", "Square", "Saw"], minValue: 1)
        #expect(try parser.parse("square") == 2)
        #expect(try parser.parse(" Saw ") == 3)
        #expect(try parser.parse("1") == 1)
    }

    @Test func commaLocaleAcceptsItsDecimalSeparator() throws {
        let parser = ValueParser(unit: .decibels, locale: Locale(identifier: "de_DE"))
        #expect(try parser.parse("-1,5 dB") == -1.5)
        #expect(try parser.parse("-1.5") == -1.5)
    }

    @Test(arguments: [
        ("", ValueParsingError.empty), ("   ", .empty), ("loud", .notANumber("loud")), ("dB", .notANumber("dB")),
        ("nan", .nan), ("-6 furlongs", .unknownSuffix("furlongs")),
        ("440 Hz", .suffixMismatch(suffix: "Hz", unit: .decibels)),
        ("-6 dB dB", .unknownSuffix("dB dB")),
    ])
    func refusesWithATypedError(text: String, expected: ValueParsingError) {
        #expect(throws: expected) { try ValueParser(unit: .decibels).parse(text) }
    }

    @Test func groupingNeedsThreeDigits() throws {
        let parser = ValueParser(unit: .hertz)
        #expect(try parser.parse("12,345,678 Hz") == 12_345_678)
        #expect(throws: ValueParsingError.unknownSuffix(",5")) { try parser.parse("1,5") }
        #expect(throws: ValueParsingError.unknownSuffix(",2345")) { try parser.parse("1,2345") }
    }

    @Test func unknownValueStringIsNotANumber() {
        let parser = ValueParser(unit: .indexed, valueStrings: ["Sine", "Square"])
        #expect(throws: ValueParsingError.notANumber("Triangle")) { try parser.parse("Triangle") }
    }

    @Test func displayStringsOfTheDefaultTreeReadBack() throws {
        let tree = ParameterTree.makeDefault()
        for parameter in tree.allParameters {
            for norm in stride(from: 0.0, through: 1.0, by: 0.125) {
                let value = parameter.constrained(parameter.denormalize(norm))!
                let text = parameter.asciiDisplayString(fromValue: value)
                let isASCII = text.unicodeScalars.allSatisfy { $0.isASCII }
                #expect(isASCII)
                let parsed = try parameter.value(fromString: text)
                // Display text keeps 2 or 3 significant digits: half a unit of the second digit is 5%.
                let tolerance = abs(value) * 0.05 + 0.001
                #expect(abs(parsed - value) <= tolerance, "\(parameter.keyPath) \(value) → \(text) → \(parsed)")
            }
        }
    }
}
