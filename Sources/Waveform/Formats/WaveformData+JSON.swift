extension WaveformData {
    /// audiowaveform's `.json` file: one line, then a newline.
    ///
    /// `{"version":2,"channels":C,"sample_rate":R,"samples_per_pixel":Z,"bits":B,"length":L,"data":[…]}`
    ///
    /// - Complexity: O(`samples.count`).
    public func jsonText() -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(120 + samples.count * 7)
        func append(_ text: StaticString) {
            text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }
        func append(_ number: Int) {
            var magnitude = number.magnitude
            if number < 0 { bytes.append(UInt8(ascii: "-")) }
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var count = 0
            withUnsafeMutableBytes(of: &digits) { buffer in
                repeat {
                    buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                    count += 1
                } while magnitude > 0 && count < buffer.count
                for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
            }
        }
        append("{\"version\":2,\"channels\":")
        append(channels)
        append(",\"sample_rate\":")
        append(sampleRate)
        append(",\"samples_per_pixel\":")
        append(samplesPerPixel)
        append(",\"bits\":")
        append(bits)
        append(",\"length\":")
        append(length)
        append(",\"data\":[")
        for (index, value) in samples.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            append(Int(value))
        }
        append("]}\n")
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads audiowaveform's `.json` file (version 1, without `channels`, or 2).
    ///
    /// Keys may come in any order with any JSON white space between tokens; each must appear once,
    /// and no other key is accepted. The values of `data` must fit `bits`, and there must be
    /// `length × channels × 2` of them.
    ///
    /// - Throws: ``WaveformFormatError`` with the byte offset of the problem.
    /// - Complexity: O(`text.utf8.count`).
    public init(jsonText text: String) throws(WaveformFormatError) {
        var text = text
        // `withUTF8` rethrows untyped errors: the typed one travels in a Result.
        let parsed = text.withUTF8 { bytes in
            Result { () throws(WaveformFormatError) in
                var parser = WaveformJSONParser(bytes: bytes)
                return try parser.parse()
            }
        }
        self = try parsed.get()
    }
}
