/// The pieces of audiowaveform's `.dat` and `.json` files, shared by ``WaveformData`` (whole
/// files in memory) and ``WaveformFileWriter`` (pairs as they come), so that both write the same
/// bytes by construction.
enum WaveformEncoding {
    /// The `.dat` version written: `requested` (1 or 2), or 1 for one channel and 2 otherwise;
    /// always 2 for more than one channel, which version 1 cannot declare.
    static func datVersion(requested: Int?, channels: Int) -> Int {
        (requested ?? (channels == 1 ? 1 : 2)) == 1 && channels == 1 ? 1 : 2
    }

    /// The size of a `.dat` header of `version`.
    static func datHeaderSize(version: Int) -> Int {
        version == 1 ? 20 : 24
    }

    /// Appends the `.dat` header: int32 version, uint32 flags (bit 0: 8-bit), int32 sample rate,
    /// int32 samples per pixel, uint32 length and, in version 2, int32 channels, little-endian.
    static func appendDatHeader(
        _ header: WaveformDataHeader, length: Int, version: Int, to bytes: inout [UInt8]
    ) {
        func append32(_ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        append32(UInt32(version))
        append32(header.bits == 8 ? 1 : 0)
        append32(UInt32(truncatingIfNeeded: header.sampleRate))
        append32(UInt32(truncatingIfNeeded: header.samplesPerPixel))
        append32(UInt32(truncatingIfNeeded: length))
        if version == 2 { append32(UInt32(truncatingIfNeeded: header.channels)) }
    }

    /// Appends `.dat` values: int8 for 8 bits, little-endian int16 otherwise.
    static func appendDat(_ values: UnsafeBufferPointer<Int16>, bits: Int, to bytes: inout [UInt8]) {
        if bits == 8 {
            for value in values { bytes.append(UInt8(truncatingIfNeeded: value)) }
        } else {
            for value in values {
                let word = UInt16(bitPattern: value)
                bytes.append(UInt8(truncatingIfNeeded: word))
                bytes.append(UInt8(truncatingIfNeeded: word >> 8))
            }
        }
    }

    /// Appends the `.json` text up to and including the `[` that opens `data`.
    static func appendJSONHead(_ header: WaveformDataHeader, length: Int, to bytes: inout [UInt8]) {
        append("{\"version\":2,\"channels\":", to: &bytes)
        appendDecimal(header.channels, to: &bytes)
        append(",\"sample_rate\":", to: &bytes)
        appendDecimal(header.sampleRate, to: &bytes)
        append(",\"samples_per_pixel\":", to: &bytes)
        appendDecimal(header.samplesPerPixel, to: &bytes)
        append(",\"bits\":", to: &bytes)
        appendDecimal(header.bits, to: &bytes)
        append(",\"length\":", to: &bytes)
        appendDecimal(length, to: &bytes)
        append(",\"data\":[", to: &bytes)
    }

    /// Appends `.json` values separated by commas; `continuing` says values came before, so
    /// that the first of these needs a comma too.
    static func appendJSON(_ values: UnsafeBufferPointer<Int16>, continuing: Bool, to bytes: inout [UInt8]) {
        for (index, value) in values.enumerated() {
            if continuing || index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendDecimal(Int(value), to: &bytes)
        }
    }

    /// Appends what closes a `.json` file after the last value.
    static func appendJSONTail(to bytes: inout [UInt8]) {
        append("]}\n", to: &bytes)
    }

    static func append(_ text: StaticString, to bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `number` in decimal, as `printf("%d")` writes it.
    static func appendDecimal(_ number: Int, to bytes: inout [UInt8]) {
        var magnitude = number.magnitude
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        // Twenty digits hold any 64-bit magnitude.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            repeat {
                digits[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(digits[index]) }
        }
    }
}
