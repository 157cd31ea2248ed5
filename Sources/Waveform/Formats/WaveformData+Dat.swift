extension WaveformData {
    /// The most channels a `.dat` file may declare (libsndfile's limit for a decoded file).
    static let maximumChannels = 1024

    /// audiowaveform's binary `.dat` file: little-endian header, then the pairs.
    ///
    /// The header is int32 version, uint32 flags (bit 0: 8-bit), int32 sample rate, int32 samples
    /// per pixel, uint32 length and, in version 2, int32 channels; the pairs follow as int8 or
    /// int16, channel by channel within each index.
    ///
    /// - Parameter version: 1 or 2; `nil` writes version 1 for one channel and 2 otherwise, as
    ///   audiowaveform does. Version 1 has no channel count, so data with more than one channel is
    ///   always written as version 2.
    /// - Returns: the bytes of the file.
    /// - Complexity: O(`samples.count`).
    public func datBytes(version: Int? = nil) -> [UInt8] {
        let written = WaveformEncoding.datVersion(requested: version, channels: channels)
        var bytes = [UInt8]()
        bytes.reserveCapacity(WaveformEncoding.datHeaderSize(version: written) + samples.count * (bits / 8))
        WaveformEncoding.appendDatHeader(header, length: length, version: written, to: &bytes)
        samples.withUnsafeBufferPointer { WaveformEncoding.appendDat($0, bits: bits, to: &bytes) }
        return bytes
    }

    /// Reads audiowaveform's `.dat` file (version 1 or 2).
    ///
    /// The data must be exactly as long as the header says; nothing is allocated before that is
    /// checked against the bytes given, so a hostile length field costs nothing.
    ///
    /// - Throws: ``WaveformFormatError`` naming the field and its offset.
    /// - Complexity: O(`bytes.count`).
    public init(datBytes bytes: [UInt8]) throws(WaveformFormatError) {
        func word(_ offset: Int) -> UInt32 {
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
        }
        guard bytes.count >= 20 else { throw .truncatedHeader(needed: 20, available: bytes.count) }
        let version = Int(Int32(bitPattern: word(0)))
        guard version == 1 || version == 2 else { throw .unsupportedVersion(version, offset: 0) }
        let headerSize = WaveformEncoding.datHeaderSize(version: version)
        guard bytes.count >= headerSize else {
            throw .truncatedHeader(needed: headerSize, available: bytes.count)
        }
        let flags = word(4)
        guard flags & ~1 == 0 else { throw .unknownFlags(flags, offset: 4) }
        let bits = flags & 1 == 1 ? 8 : 16
        let sampleRate = Int(Int32(bitPattern: word(8)))
        guard sampleRate > 0 else { throw .invalidField(field: "sample_rate", value: sampleRate, offset: 8) }
        let zoom = Int(Int32(bitPattern: word(12)))
        guard zoom > 0 else { throw .invalidField(field: "samples_per_pixel", value: zoom, offset: 12) }
        let length = Int(word(16))
        let channels = version == 2 ? Int(Int32(bitPattern: word(20))) : 1
        guard (1...Self.maximumChannels).contains(channels) else {
            throw .invalidField(field: "channels", value: channels, offset: 20)
        }
        // At most 2^32 × 1024 × 2 × 2 bytes: no overflow in Int.
        let count = length * channels * 2
        let expected = count * (bits / 8)
        let available = bytes.count - headerSize
        guard expected == available else {
            throw .dataSizeMismatch(expectedBytes: expected, availableBytes: available, offset: headerSize)
        }
        var samples = [Int16](repeating: 0, count: count)
        samples.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                if bits == 8 {
                    for index in 0..<count {
                        out[index] = Int16(Int8(bitPattern: input[headerSize + index]))
                    }
                } else {
                    for index in 0..<count {
                        let low = UInt16(input[headerSize + 2 * index])
                        let high = UInt16(input[headerSize + 2 * index + 1])
                        out[index] = Int16(bitPattern: low | high << 8)
                    }
                }
            }
        }
        self.init(
            sampleRate: sampleRate, samplesPerPixel: zoom, bits: bits, channels: channels, length: length,
            samples: samples)
    }
}
