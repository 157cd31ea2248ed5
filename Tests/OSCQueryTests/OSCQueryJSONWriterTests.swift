import OSCQuery
import Testing

@Suite struct OSCQueryJSONWriterTests {
    @Test(arguments: [
        ("plain", "\"plain\""), ("say \"hi\"", #""say \"hi\"""#), ("back\\slash", #""back\\slash""#),
        ("line\nfeed\r\ttab", #""line\nfeed\r\ttab""#), ("\u{08}\u{0C}", #""\b\f""#),
        ("\u{00}\u{01}\u{1F}", #""\u0000\u0001\u001F""#), ("\u{7F}", "\"\u{7F}\""),
        ("Grüße °C 🎛", "\"Grüße °C 🎛\""), ("/slash", "\"/slash\""),
    ])
    func escapesStringsAsRFC8259Says(text: String, json: String) {
        var writer = OSCQueryJSONWriter()
        writer.write(string: text)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == json)
    }

    @Test func nonASCIIGoesAsItsUTF8Bytes() {
        var writer = OSCQueryJSONWriter()
        writer.write(string: "é")
        #expect(writer.bytes == [0x22, 0xC3, 0xA9, 0x22])
    }

    @Test(arguments: [
        (Float(0.5), "0.5"), (1, "1.0"), (0, "0.0"), (-0.25, "-0.25"), (0.1, "0.1"), (1e-7, "1e-07"),
        (3.4028235e38, "3.4028235e+38"), (0.33333334, "0.33333334"), (Float.leastNonzeroMagnitude, "1e-45"),
    ])
    func writesFloatsAsTheirShortestRoundTrip(number: Float, text: String) throws {
        var writer = OSCQueryJSONWriter()
        writer.write(float: number)
        let written = String(decoding: writer.bytes, as: UTF8.self)
        #expect(written == text)
        #expect(Float(written) == number)
        let parsed = try OSCQueryJSONParser().parse(writer.bytes)
        guard case .double(let value) = parsed else {
            Issue.record("\(written) parsed as \(parsed)")
            return
        }
        #expect(Float(value) == number)
    }

    @Test func theNormalisedValueOfAThirdIsShortNotDoubleLength() {
        var writer = OSCQueryJSONWriter()
        writer.write(float: Float(1.0 / 3.0))
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "0.33333334")
    }

    @Test(arguments: [Float.nan, .infinity, -.infinity])
    func writesNonFiniteFloatsAsNull(number: Float) {
        var writer = OSCQueryJSONWriter()
        writer.write(float: number)
        writer.write(double: Double(number))
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "nullnull")
    }

    @Test func writesValuesCompactlyInMemberOrder() {
        let value = OSCQueryJSON.object([
            ("z", .int(-3)), ("a", .array([.bool(true), .bool(false), .null])), ("m", .object([])),
            ("d", .double(0.1)), ("s", .string("x")), ("e", .array([])),
        ])
        #expect(value.text == #"{"z":-3,"a":[true,false,null],"m":{},"d":0.1,"s":"x","e":[]}"#)
    }

    @Test func writtenTextParsesBackToTheSameValue() throws {
        let value = OSCQueryJSON.object([
            ("text", .string("tab\t \"quoted\" \u{01} ünï 🎚")), ("n", .int(Int.min)), ("big", .int(Int.max)),
            ("list", .array([.double(-1.5e300), .double(2.5), .object([("k", .null)])])),
        ])
        #expect(try OSCQueryJSONParser().parse(value.text) == value)
    }
}
