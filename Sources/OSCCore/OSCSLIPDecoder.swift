/// Reads SLIP-framed OSC packets (OSC 1.1 streams) as bytes arrive.
///
/// A frame ends at END (`0xC0`). Senders that follow OSC 1.1 also put an END before each packet;
/// the empty frames this makes between two ENDs are skipped, so single-END senders (RFC 1055's
/// original form) are read as well.
///
/// The decoder unescapes in place, in the buffer's storage: the unescaped frame is never longer
/// than its escaped form, so no second buffer is needed and a frame is handed over as a slice.
/// It keeps its position between calls, so feeding a frame byte by byte costs linear time.
/// Use one decoder per buffer.
public struct OSCSLIPDecoder: Sendable {
    /// The longest frame accepted, in unescaped bytes.
    public let maximumFrameLength: Int
    // Raw bytes of the current frame already looked at, counted from the buffer's reader index.
    private var scanned = 0
    // Unescaped bytes of the current frame, stored from the buffer's reader index on.
    private var written = 0
    private var escaping = false

    /// Creates a decoder.
    /// - Parameter maximumFrameLength: the longest frame accepted; 1 MiB by default.
    public init(maximumFrameLength: Int = OSCFraming.defaultMaximumFrameLength) {
        precondition(maximumFrameLength >= 0)
        self.maximumFrameLength = maximumFrameLength
    }

    private enum Step {
        case needMore(scanned: Int, written: Int, escaping: Bool, start: Int)
        case frame(start: Int, length: Int, next: Int)
        case failed(OSCFramingError)
    }

    /// Consumes the next complete frame from `buffer`.
    ///
    /// - Parameter buffer: the bytes received so far.
    /// - Returns: the unescaped frame (a slice of the buffer's storage, not a copy), or `nil` if
    ///   no frame is complete yet.
    /// - Throws: ``OSCFramingError/frameTooLarge(length:limit:)`` as soon as a frame grows past
    ///   ``maximumFrameLength``; ``OSCFramingError/invalidEscape(byte:offset:)`` for ESC followed
    ///   by anything but ESC_END or ESC_ESC.
    /// - Complexity: O(n) in the bytes not looked at by earlier calls.
    public mutating func decode(buffer: inout OSCFramingBuffer) throws(OSCFramingError) -> ArraySlice<UInt8>? {
        let limit = maximumFrameLength
        let end = buffer.writerIndex
        var start = buffer.readerIndex
        let scanned = scanned
        var written = written
        var escaping = escaping
        let step = buffer.storage.withUnsafeMutableBufferPointer { bytes -> Step in
            var index = start + scanned
            while index < end {
                var byte = bytes[index]
                index += 1
                if escaping {
                    escaping = false
                    switch byte {
                    case OSCSLIPEncoder.escapedEnd: byte = OSCSLIPEncoder.end
                    case OSCSLIPEncoder.escapedEscape: byte = OSCSLIPEncoder.escape
                    default: return .failed(.invalidEscape(byte: byte, offset: written))
                    }
                } else if byte == OSCSLIPEncoder.end {
                    if written == 0 {
                        start = index
                        continue
                    }
                    return .frame(start: start, length: written, next: index)
                } else if byte == OSCSLIPEncoder.escape {
                    escaping = true
                    continue
                }
                guard written < limit else { return .failed(.frameTooLarge(length: written + 1, limit: limit)) }
                bytes[start + written] = byte
                written += 1
            }
            return .needMore(scanned: index - start, written: written, escaping: escaping, start: start)
        }
        switch step {
        case .needMore(let scanned, let written, let escaping, let start):
            buffer.readerIndex = start
            self.scanned = scanned
            self.written = written
            self.escaping = escaping
            return nil
        case .frame(let start, let length, let next):
            buffer.readerIndex = next
            self.scanned = 0
            self.written = 0
            self.escaping = false
            return buffer.storage[start..<(start + length)]
        case .failed(let error):
            throw error
        }
    }
}
