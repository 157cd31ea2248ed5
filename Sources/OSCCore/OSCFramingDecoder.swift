/// Reads frames of either stream framing, chosen when the decoder is made.
///
/// A TCP connection picks its framing from its first byte (``OSCFraming/detect(firstByte:)``)
/// and then decodes with one of these.
public struct OSCFramingDecoder: Sendable {
    private enum Inner: Sendable {
        case slip(OSCSLIPDecoder)
        case lengthPrefix(OSCLengthPrefixDecoder)
    }
    private var inner: Inner

    /// The framing this decoder reads.
    public let framing: OSCFraming

    /// Creates a decoder.
    /// - Parameters:
    ///   - framing: the stream's framing.
    ///   - maximumFrameLength: the longest frame accepted; 1 MiB by default.
    public init(framing: OSCFraming, maximumFrameLength: Int = OSCFraming.defaultMaximumFrameLength) {
        self.framing = framing
        switch framing {
        case .slip: inner = .slip(OSCSLIPDecoder(maximumFrameLength: maximumFrameLength))
        case .lengthPrefix: inner = .lengthPrefix(OSCLengthPrefixDecoder(maximumFrameLength: maximumFrameLength))
        }
    }

    /// Consumes the next complete frame from `buffer`; see ``OSCSLIPDecoder/decode(buffer:)`` and
    /// ``OSCLengthPrefixDecoder/decode(buffer:)``.
    /// - Parameter buffer: the bytes received so far.
    /// - Returns: the frame, or `nil` if none is complete yet.
    /// - Throws: ``OSCFramingError`` when the stream cannot be read further.
    public mutating func decode(buffer: inout OSCFramingBuffer) throws(OSCFramingError) -> ArraySlice<UInt8>? {
        switch inner {
        case .slip(var decoder):
            defer { inner = .slip(decoder) }
            return try decoder.decode(buffer: &buffer)
        case .lengthPrefix(var decoder):
            defer { inner = .lengthPrefix(decoder) }
            return try decoder.decode(buffer: &buffer)
        }
    }
}
