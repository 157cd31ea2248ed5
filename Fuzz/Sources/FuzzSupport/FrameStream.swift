import OSCCore

/// What a stream decoder made of a byte stream: the frames in order, then the error that stopped it.
public struct FrameStream: Equatable, CustomStringConvertible {
    /// The frames, copied out of the buffer.
    public var frames: [[UInt8]] = []
    /// The error that ended the stream, if any.
    public var error: OSCFramingError?

    /// An empty result.
    public init() {}

    /// Feeds `chunks` one after the other to a fresh decoder of `framing`, draining frames after each.
    public static func decode(_ chunks: [ArraySlice<UInt8>], framing: OSCFraming, maximumFrameLength: Int)
        -> FrameStream
    {
        var result = FrameStream()
        var decoder = OSCFramingDecoder(framing: framing, maximumFrameLength: maximumFrameLength)
        var buffer = OSCFramingBuffer(capacity: 16)
        for chunk in chunks {
            buffer.write(chunk)
            do {
                while let frame = try decoder.decode(buffer: &buffer) {
                    fuzzCheck(
                        frame.count <= maximumFrameLength, "a frame of \(frame.count) bytes passed the limit")
                    result.frames.append(Array(frame))
                }
            } catch {
                result.error = error
                return result
            }
        }
        return result
    }

    /// The frames and the error, for the crash message.
    public var description: String {
        "\(frames.count) frames \(frames.map(\.count)), error \(error.map { "\($0)" } ?? "none")"
    }
}
