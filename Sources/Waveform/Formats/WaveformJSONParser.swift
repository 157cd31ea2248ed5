/// A reader for the one JSON shape audiowaveform writes; no general JSON values are built.
struct WaveformJSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func parse() throws(WaveformFormatError) -> WaveformData {
        var fields: [String: (value: Int, offset: Int)] = [:]
        var data: [Int16]?
        var dataOffsets: [Int] = []
        try expect(UInt8(ascii: "{"), "'{'")
        skipSpace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
        } else {
            while true {
                let keyOffset = offset
                let key = try readKey()
                try expect(UInt8(ascii: ":"), "':'")
                skipSpace()
                if key == "data" {
                    guard data == nil else { throw .unexpectedField(key, offset: keyOffset) }
                    var values: [Int16] = []
                    try readArray(into: &values, offsets: &dataOffsets)
                    data = values
                } else {
                    let known = ["version", "channels", "sample_rate", "samples_per_pixel", "bits", "length"]
                    guard known.contains(key), fields[key] == nil else {
                        throw .unexpectedField(key, offset: keyOffset)
                    }
                    let valueOffset = offset
                    fields[key] = (try readInteger(), valueOffset)
                }
                skipSpace()
                if peek() == UInt8(ascii: ",") {
                    offset += 1
                    continue
                }
                try expect(UInt8(ascii: "}"), "',' or '}'")
                break
            }
        }
        skipSpace()
        guard offset == bytes.count else { throw .syntax(expected: "end of input", offset: offset) }
        return try build(fields: fields, data: data, dataOffsets: dataOffsets)
    }

    private func build(
        fields: [String: (value: Int, offset: Int)], data: [Int16]?, dataOffsets: [Int]
    ) throws(WaveformFormatError) -> WaveformData {
        func field(_ name: String) throws(WaveformFormatError) -> (value: Int, offset: Int) {
            guard let found = fields[name] else { throw .missingField(name) }
            return found
        }
        let version = try field("version")
        guard version.value == 1 || version.value == 2 else {
            throw .unsupportedVersion(version.value, offset: version.offset)
        }
        let channels = version.value == 1 && fields["channels"] == nil ? (1, 0) : try field("channels")
        guard (1...WaveformData.maximumChannels).contains(channels.0) else {
            throw .invalidField(field: "channels", value: channels.0, offset: channels.1)
        }
        let sampleRate = try field("sample_rate")
        guard sampleRate.value > 0, sampleRate.value <= Int32.max else {
            throw .invalidField(field: "sample_rate", value: sampleRate.value, offset: sampleRate.offset)
        }
        let zoom = try field("samples_per_pixel")
        guard zoom.value > 0, zoom.value <= Int32.max else {
            throw .invalidField(field: "samples_per_pixel", value: zoom.value, offset: zoom.offset)
        }
        let bits = try field("bits")
        guard bits.value == 8 || bits.value == 16 else {
            throw .invalidField(field: "bits", value: bits.value, offset: bits.offset)
        }
        let length = try field("length")
        guard length.value >= 0, length.value <= UInt32.max else {
            throw .invalidField(field: "length", value: length.value, offset: length.offset)
        }
        guard let data else { throw .missingField("data") }
        let limit = bits.value == 8 ? 128 : 32768
        for (index, value) in data.enumerated() where Int(value) < -limit || Int(value) >= limit {
            throw .sampleOutOfRange(value: Int(value), offset: dataOffsets[index])
        }
        let expected = length.value * channels.0 * 2
        guard data.count == expected else { throw .sampleCountMismatch(expected: expected, found: data.count) }
        return WaveformData(
            sampleRate: sampleRate.value, samplesPerPixel: zoom.value, bits: bits.value, channels: channels.0,
            length: length.value, samples: data)
    }

    private func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    private mutating func skipSpace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
    }

    private mutating func expect(_ byte: UInt8, _ name: String) throws(WaveformFormatError) {
        skipSpace()
        guard peek() == byte else { throw .syntax(expected: name, offset: offset) }
        offset += 1
    }

    private mutating func readKey() throws(WaveformFormatError) -> String {
        try expect(UInt8(ascii: "\""), "a key")
        let start = offset
        // audiowaveform's keys are short lower-case words: anything longer is not one of them.
        while let byte = peek(), byte != UInt8(ascii: "\"") {
            guard byte >= 0x20, byte != UInt8(ascii: "\\"), offset - start < 32 else {
                throw .syntax(expected: "one of audiowaveform's keys", offset: start)
            }
            offset += 1
        }
        guard peek() != nil else { throw .syntax(expected: "'\"'", offset: offset) }
        let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        offset += 1
        return key
    }

    private mutating func readInteger() throws(WaveformFormatError) -> Int {
        let start = offset
        var negative = false
        if peek() == UInt8(ascii: "-") {
            negative = true
            offset += 1
        }
        var value = 0
        var digits = 0
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            // Twelve digits exceed every field's range; stopping there keeps `value` from overflowing.
            guard digits < 12 else { throw .syntax(expected: "a number of at most 12 digits", offset: start) }
            if digits == 1 && value == 0 { throw .syntax(expected: "a number without leading zeros", offset: start) }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            offset += 1
        }
        guard digits > 0 else { throw .syntax(expected: "an integer", offset: start) }
        return negative ? -value : value
    }

    private mutating func readArray(into values: inout [Int16], offsets: inout [Int]) throws(WaveformFormatError) {
        try expect(UInt8(ascii: "["), "'['")
        skipSpace()
        if peek() == UInt8(ascii: "]") {
            offset += 1
            return
        }
        while true {
            skipSpace()
            let start = offset
            let value = try readInteger()
            guard value >= -32768, value <= 32767 else { throw .sampleOutOfRange(value: value, offset: start) }
            values.append(Int16(value))
            offsets.append(start)
            skipSpace()
            if peek() == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            try expect(UInt8(ascii: "]"), "',' or ']'")
            return
        }
    }
}
