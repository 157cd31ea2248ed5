/// Reads OSC 1.0 stream frames: a big-endian int32 length, then that many bytes.
///
/// The decoder takes bytes as they come: feed a ``OSCFramingBuffer`` and call
/// ``decode(buffer:)`` until it returns `nil`. A frame whose length is 0 is skipped. A length over
/// the maximum is refused as soon as its four bytes are in, before any byte of the frame is
/// buffered, so a huge prefix never makes the reader allocate that much.
public struct OSCLengthPrefixDecoder: Sendable {
    /// The longest frame accepted, in bytes (not counting the prefix).
    public let maximumFrameLength: Int

    /// Creates a decoder.
    /// - Parameter maximumFrameLength: the longest frame accepted; 1 MiB by default.
    public init(maximumFrameLength: Int = OSCFraming.defaultMaximumFrameLength) {
        precondition(maximumFrameLength >= 0)
        self.maximumFrameLength = maximumFrameLength
    }

    /// Consumes the next complete frame from `buffer`.
    ///
    /// - Parameter buffer: the bytes received so far; the frame and its prefix are consumed.
    /// - Returns: the frame's bytes (a slice of the buffer's storage, not a copy), or `nil` if
    ///   the buffer does not hold a whole frame yet.
    /// - Throws: ``OSCFramingError/frameTooLarge(length:limit:)`` when the prefix announces more
    ///   than ``maximumFrameLength`` bytes.
    public mutating func decode(buffer: inout OSCFramingBuffer) throws(OSCFramingError) -> ArraySlice<UInt8>? {
        while buffer.readableBytes >= 4 {
            let start = buffer.readerIndex
            let length = buffer.storage.withUnsafeBytes { bytes in
                UInt32(bytes[start]) << 24 | UInt32(bytes[start + 1]) << 16 | UInt32(bytes[start + 2]) << 8
                    | UInt32(bytes[start + 3])
            }
            guard Int(length) <= maximumFrameLength else {
                throw .frameTooLarge(length: Int(length), limit: maximumFrameLength)
            }
            if length == 0 {
                buffer.readerIndex += 4
                continue
            }
            guard buffer.readableBytes >= 4 + Int(length) else { return nil }
            let frame = buffer.storage[(start + 4)..<(start + 4 + Int(length))]
            buffer.readerIndex += 4 + Int(length)
            return frame
        }
        return nil
    }
}
