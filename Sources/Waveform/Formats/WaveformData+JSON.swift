extension WaveformData {
    /// audiowaveform's `.json` file: one line, then a newline.
    ///
    /// `{"version":2,"channels":C,"sample_rate":R,"samples_per_pixel":Z,"bits":B,"length":L,"data":[…]}`
    ///
    /// - Complexity: O(`samples.count`).
    public func jsonText() -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(120 + samples.count * 7)
        WaveformEncoding.appendJSONHead(header, length: length, to: &bytes)
        samples.withUnsafeBufferPointer { WaveformEncoding.appendJSON($0, continuing: false, to: &bytes) }
        WaveformEncoding.appendJSONTail(to: &bytes)
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
