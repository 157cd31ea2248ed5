import Controls
import Foundation
import OSCCore
import Parameters
import Testing

/// The page's own JavaScript, run in headless Chromium, against the Swift modules it mirrors
/// (formatting, tapers, drag math, geometry, editor, OSC bytes) and against CONTROLS.md's
/// documented vectors, so that the two languages cannot drift apart.
@Suite struct PageFunctionTests {
    @Test func pageScriptsAgreeWithSwiftAndWithControlsMD() async throws {
        let cases =
            Self.documentedCases + Self.formattingCases + Self.displayCases + Self.transformCases + Self.dragCases
            + Self.geometryCases + Self.editorCases + Self.titleCases + Self.oscCases
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "knoblink-vectors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("cases.json")
        let output = directory.appendingPathComponent("results.json")
        try JSONSerialization.data(withJSONObject: cases.map(\.input)).write(to: input)
        let run = try await BrowserScript.run("vectors.py", [input.path, output.path])
        try #require(run.status == 0, "\(BrowserScript.describe(run))")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [Any])
        try #require(results.count == cases.count)
        let mismatches = zip(cases, results).compactMap { $0.mismatch($1) }
        #expect(
            mismatches.isEmpty,
            "\(mismatches.count) of \(cases.count) cases differ:\n\(mismatches.prefix(40).joined(separator: "\n"))")
    }

    // MARK: CONTROLS.md, word for word

    static var documentedCases: [PageCase] {
        let formats: [(Double, Int, Int, String)] = [
            (12.5, 1, 2, "12"), (12.34, 1, 2, "12"), (1.23, 1, 2, "1.2"), (445, 1, 2, "440"), (455, 1, 2, "460"),
            (0.125, 1, 2, "0.12"), (1234.5, 1, 2, "1,200"), (12345, 1, 2, "12,000"), (99.95, 1, 2, "100"),
            (12.5, 1, 3, "12.5"), (1234.5, 1, 3, "1,230"), (0.96101229, 1, 3, "0.961"), (12.34, 1, 4, "12.34"),
            (1234.5, 1, 4, "1,234"), (36, 1, 2, "36"), (18, 1, 2, "18"), (0, 1, 2, "0"), (1, 1, 3, "1"),
            (100, 1, 3, "100"),
        ]
        var cases = formats.map { value, low, high, text in
            PageCase.call("1.7 \(value) \(low)…\(high)", "formatNumber", [value, low, high], .text(text))
        }
        cases += [
            PageCase.call("1.7 editing 20000", "forEditing", [20000], .text("20000")),
            PageCase.call("1.7 editing 0.96101229", "forEditing", [0.96101229], .text("0.961012")),
            display("1.7 seconds 0.25", "s", 0.25, "250ms"), display("1.7 seconds 1.2013", "s", 1.2013, "1.2s"),
            display("1.7 hertz 440", "Hz", 440, "440 Hz"), display("1.7 hertz 4812.6", "Hz", 4812.6, "4.81kHz"),
            display("1.7 percent 50", "%", 50, "50%"), display("SURFACES -6 dB", "dB", -6, "-6 dB"),
            PageCase.call("1.1 linear 0.2", "valueToNorm", [0.2, 0, 4, "linear"], .numbers([0.05], tolerance: 1e-12)),
            PageCase.call("1.1 linear 2", "valueToNorm", [2, 0, 4, "linear"], .numbers([0.5], tolerance: 1e-12)),
            PageCase.call(
                "1.1 log 2", "valueToNorm", [2, 0, 4, "logarithmic"], .numbers([0.7403626894942439], tolerance: 1e-12)),
            PageCase.call(
                "1.1 log 0.5", "normToValue", [0.5, 0, 4, "logarithmic"],
                .numbers([0.9610122934081686], tolerance: 1e-12)),
            PageCase.call("8 min == max", "valueToNorm", [3, 3, 3, "linear"], .numbers([0], tolerance: 0)),
            drag("1.4 full sweep is 2 diameters", 100, 0, (50, 200), (50, 0), 1),
            drag("1.4 0.4 diameter gives 0.2", 100, 0, (50, 100), (50, 60), 0.2),
            drag("1.4 past the end and back", 100, 1, (50, 50), (50, 60), 0.95),
            PageCase(
                label: "1.4 scale at dX 20 and 49, band", input: ["kind": "scale", "size": 100, "xs": [70, 99]],
                expected: .numbers([0.68, 0.1, 4], tolerance: 1e-12)),
            PageCase.call("3 endTrim(0)", "endTrim", [0], .numbers([40.0 / 360], tolerance: 1e-12)),
            PageCase.call("3 365°", "normalizedAngle", [365], .numbers([5.0 / 360], tolerance: 1e-12)),
            PageCase.call("3 −5°", "normalizedAngle", [-5], .numbers([355.0 / 360], tolerance: 1e-12)),
            PageCase.call("3 360°", "normalizedAngle", [360], .numbers([0], tolerance: 0)),
            PageCase.call("SURFACES bipolar pan", "isBipolar", [-50, 50], .bool(true)),
            PageCase.call("SURFACES gain is not bipolar", "isBipolar", [-60, 12], .bool(false)),
        ]
        // 1.9: norm 0.5 points the indicator at 12 o'clock (radius 45, 16 long, on a 100 knob).
        cases.append(
            PageCase(
                label: "1.9 norm 0.5 at 12 o'clock", input: ["kind": "geometry", "diameter": 100, "norm": 0.5],
                expected: .numbers([45, 180, 50, 5, 50, 16], tolerance: 1e-12)))
        return cases
    }

    static func display(_ label: String, _ unit: String, _ value: Double, _ text: String) -> PageCase {
        PageCase(label: label, input: ["kind": "display", "unit": unit, "value": value], expected: .text(text))
    }

    static func drag(
        _ label: String, _ size: Double, _ norm: Double, _ from: (Double, Double), _ to: (Double, Double),
        _ expected: Double
    ) -> PageCase {
        PageCase(
            label: label,
            input: [
                "kind": "drag", "width": size, "height": size, "norm": norm, "from": ["x": from.0, "y": from.1],
                "to": ["x": to.0, "y": to.1], "fine": false,
            ], expected: .numbers([expected], tolerance: 1e-12))
    }

    static func geometry(_ label: String, _ diameter: Double, _ norm: Double) -> PageCase {
        let shape = KnobGeometry(diameter: diameter, norm: norm, theme: Theme())
        let expected: [Double?] = [
            shape.track.radius, shape.value?.endAngle.degrees, shape.indicator.from.x, shape.indicator.from.y,
            shape.indicator.to.x, shape.indicator.to.y,
        ]
        return PageCase(
            label: label, input: ["kind": "geometry", "diameter": diameter, "norm": norm],
            expected: .numbers(expected, tolerance: 1e-12))
    }

    // MARK: Against the Swift modules

    static var formattingCases: [PageCase] {
        let mantissas = [1, 1.5, 2.5, 1.25, 1.005, 9.995, 4.45, 4.55, 1.2345, 9.9999, 7.77777, 3.14159265]
        let ranges: [ClosedRange<Int>] = [1...2, 1...3, 1...4, 1...6, 2...4]
        var cases: [PageCase] = []
        for exponent in -4...7 {
            for mantissa in mantissas {
                for sign in [1.0, -1.0] {
                    let value = sign * mantissa * pow(10, Double(exponent))
                    for range in ranges {
                        let text = ValueFormatter.general(range).forDisplay(value)
                        cases.append(
                            .call(
                                "format \(value) \(range)", "formatNumber",
                                [value, range.lowerBound, range.upperBound], .text(text)))
                    }
                    let editing = ValueFormatter.general().forEditing(value)
                    cases.append(.call("editing \(value)", "forEditing", [value], .text(editing)))
                }
            }
        }
        return cases
    }

    /// Every unit's formatter, as the page picks it from `P/info`'s unit symbol.
    static var displayCases: [PageCase] {
        let values = [0, 0.25, 0.999, 1, 1.2013, 12.5, 440, 999.4, 999.6, 1000, 4812.6, 20000, -6, -60, 12, 50, 0.0004]
        var cases: [PageCase] = []
        for unit in ParameterUnit.allCases where !unit.isStepped {
            let formatter = ValueFormatter.for(unit)
            for value in values {
                cases.append(
                    display("display \(unit.name) \(value)", unit.symbol, value, formatter.forDisplay(value)))
            }
        }
        return cases
    }

    static var transformCases: [PageCase] {
        var cases: [PageCase] = []
        let ranges: [(Double, Double)] = [(0, 4), (-60, 12), (10, 20000), (0, 1), (-50, 50), (5, 5)]
        for taper in ParameterTaper.allCases {
            for (low, high) in ranges {
                let transform = NormValueTransform(minimumValue: low, maximumValue: high, taper: taper)
                for value in [low - 1, low, (low + high) / 2, low + (high - low) * 0.1, high, high + 1] {
                    cases.append(
                        .call(
                            "valueToNorm \(taper) \(low)…\(high) \(value)", "valueToNorm",
                            [value, low, high, taper.rawValue],
                            .numbers([transform.valueToNorm(value)], tolerance: 1e-12)))
                }
                for norm in [0, 0.25, 0.5, 0.9, 1] {
                    cases.append(
                        .call(
                            "normToValue \(taper) \(low)…\(high) \(norm)", "normToValue",
                            [norm, low, high, taper.rawValue],
                            .numbers([transform.normToValue(norm)], tolerance: 1e-12)))
                }
            }
        }
        return cases
    }

    static var dragCases: [PageCase] {
        var cases: [PageCase] = []
        let sizes: [(Double, Double)] = [(100, 100), (80, 80), (200, 200), (120, 60)]
        let xs: [Double] = [0, 3, 30, 48, 50, 53, 70, 99, 100, 140]
        for (width, height) in sizes {
            let scaling = KnobDragScaling(width: width, height: height)
            for x in xs {
                for norm in [0, 0.3, 0.99] {
                    for rise in [-37.5, -1, 2, 25] {
                        let from = ControlPoint(x: width / 2, y: 50)
                        let to = ControlPoint(x: x, y: 50 - rise)
                        for fine in [false, true] {
                            let expected =
                                fine
                                ? min(max(norm + rise * scaling.dragScaling * scaling.scale(atX: x) * 0.1, 0), 1)
                                : scaling.norm(after: norm, from: from, to: to)
                            cases.append(
                                PageCase(
                                    label: "drag \(width)×\(height) x \(x) norm \(norm) rise \(rise) fine \(fine)",
                                    input: [
                                        "kind": "drag", "width": width, "height": height, "norm": norm,
                                        "from": ["x": from.x, "y": from.y], "to": ["x": to.x, "y": to.y], "fine": fine,
                                    ], expected: .numbers([expected], tolerance: 1e-12)))
                        }
                    }
                }
            }
        }
        return cases
    }

    static var geometryCases: [PageCase] {
        var cases: [PageCase] = []
        for diameter in [80.0, 100, 220] {
            for norm in [0, 0.001, 0.25, 0.5, 0.75, 1, 1.5, -0.2] {
                cases.append(geometry("geometry \(diameter) \(norm)", diameter, norm))
            }
        }
        for norm in [0, 0.5, 1, 0.333] {
            cases.append(
                .call("endTrim \(norm)", "endTrim", [norm], .numbers([Theme().endTrim(for: norm)], tolerance: 1e-12)))
        }
        for degrees in [365.0, -5, 360, 0, 720, -365, 40, 320] {
            cases.append(
                .call(
                    "angle \(degrees)", "normalizedAngle", [degrees],
                    .numbers([Angle(degrees: degrees).normalized], tolerance: 1e-12)))
        }
        return cases
    }

    static var editorCases: [PageCase] {
        var cases: [PageCase] = []
        let numbers = [
            "", "+", "+10.0", "+10-", "10.0.", "10.", "+1", "-6", "−6", "12.5", ".5", "5.", "1,5", "--1", "1-",
        ]
        for sign in [ValueEditorState.Permission.allowed, .none] {
            let state = ValueEditorState(id: 0, displayName: "", value: "", theme: Theme(), signAllowed: sign)
            for text in numbers {
                cases.append(
                    .call(
                        "editor \(text.debugDescription) sign \(sign)", "editorIsValid", [text, sign == .allowed],
                        .bool(state.isValid(text))))
            }
        }
        // SURFACES.md §2: after the number, an optional unit suffix (display text for P/str).
        let suffixes: [(String, Bool, Bool)] = [
            ("-6 dB", true, true), ("-6 dB", false, false), ("1.2kHz", false, true), ("250ms", false, true),
            ("50%", false, true), ("90°", false, true), ("dB", true, false), ("6 dB x", true, false),
            ("1e3", true, false), ("6  dB", true, false), ("6dB3", true, false),
        ]
        for (text, sign, valid) in suffixes {
            cases.append(
                .call(
                    "editor suffix \(text.debugDescription) sign \(sign)", "editorIsValid", [text, sign], .bool(valid)))
        }
        for text in ["12.5", "-6", "−6", " 3 ", "+4", ".5", "5.", "abc", "1.2.3", ""] {
            let number = ValueEditorState.parse(text, decimalSeparator: ".")
            cases.append(
                .call(
                    "editor number \(text.debugDescription)", "editorNumber", [text], .numbers([number], tolerance: 0)))
        }
        return cases
    }

    /// CONTROLS.md 1.5 and the TitleFeature tests: the value for 1250 ms after a change (a
    /// second change restarts the window), always while dragging, the name after a tap.
    static var titleCases: [PageCase] {
        let steps: [[Any]] = [
            ["value", "12.34", 0], ["look", NSNull(), 1249], ["look", NSNull(), 1250], ["value", "1", 2000],
            ["value", "2", 2625], ["look", NSNull(), 3250], ["look", NSNull(), 3875], ["drag", true, 4000],
            ["value", "3", 4000], ["look", NSNull(), 9000], ["drag", false, 9000], ["look", NSNull(), 10249],
            ["look", NSNull(), 10250], ["value", "4", 11000], ["tap", NSNull(), 11100],
        ]
        let texts = [
            "12.34", "12.34", "Release", "1", "2", "2", "Release", "Release", "3", "3", "3", "3", "Release", "4",
            "Release",
        ]
        return [
            PageCase(
                label: "title timeline", input: ["kind": "title", "name": "Release", "steps": steps],
                expected: .texts(texts))
        ]
    }

    // MARK: OSC bytes

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    static var oscCases: [PageCase] {
        let messages: [(String, [OSCArgument], [[Any]])] = [
            ("/knob/gain", [.float32(0.5)], [["f", 0.5]]),
            (
                "/a", [.int32(-3), .string("héllo"), .blob([1, 2, 3]), .true, .false],
                [
                    ["i", -3], ["s", "héllo"], ["b", "010203"], ["T"], ["F"],
                ]
            ),
            ("/knob/gain/touch", [.int32(1)], [["i", 1]]), ("/knob/gain/reset", [], []),
            (
                "/wave/sub", [.string(""), .int32(512), .float32(30), .int32(0)],
                [["s", ""], ["i", 512], ["f", 30], ["i", 0]]
            ),
            ("/abc", [.string("abcd"), .blob([])], [["s", "abcd"], ["b", ""]]),
        ]
        var cases = messages.map { address, arguments, page in
            PageCase(
                label: "encode \(address)", input: ["kind": "encode", "address": address, "args": page],
                expected: .text(hex(OSCMessage(address, arguments).encoded())))
        }
        let info = OSCMessage(
            "/knob/gain/info",
            [
                .string("Gain"), .string("dB"), .float32(-60), .float32(12), .float32(0), .string("linear"),
                .int32(-1073741824),
            ])
        let bars = OSCMessage(
            "/wave/bars", [.int32(7), .int32(0), .int32(2), .blob([0x3F, 0x80, 0, 0, 0x3F, 0, 0, 0])])
        let expectedInfo: [Any] = ["/knob/gain/info", ["Gain", "dB", -60.0, 12.0, 0.0, "linear", -1073741824]]
        let expectedBars: [Any] = ["/wave/bars", [7, 0, 2, "blob:3f8000003f000000"]]
        let bundle = OSCPacket.bundle(OSCBundle([.message(info), .message(OSCMessage("/x", [.float32(0.1)]))]))
        cases += [
            PageCase(
                label: "decode info", input: ["kind": "decode", "hex": hex(info.encoded())],
                expected: .json([expectedInfo])),
            PageCase(
                label: "decode bars", input: ["kind": "decode", "hex": hex(bars.encoded())],
                expected: .json([expectedBars])),
            PageCase(
                label: "decode bundle", input: ["kind": "decode", "hex": hex(bundle.encoded())],
                expected: .json([expectedInfo, ["/x", [Double(Float(0.1))]]])),
            PageCase(
                label: "decode truncated", input: ["kind": "decode", "hex": String(hex(info.encoded()).dropLast(8))],
                expected: .json([] as [Any])),
        ]
        return cases
    }
}
