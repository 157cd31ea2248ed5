import FuzzSupport
import OSCCore

/// Feeds the length-prefix decoder the input in chunks whose sizes the first two bytes choose, and
/// checks the frames and the error against the whole input fed at once and against a plain model of
/// OSC 1.0 stream framing (big-endian int32 length, zero-length frames skipped, long ones refused).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLengthPrefixFramer(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let sizes = [1 + Int(input.takeByte() % 32), 1 + Int(input.takeByte() % 7)]
    let limit = 64
    let chunked = FrameStream.decode(input.chunks(sizes: sizes), framing: .lengthPrefix, maximumFrameLength: limit)
    let whole = FrameStream.decode([input.bytes], framing: .lengthPrefix, maximumFrameLength: limit)
    fuzzCheck(chunked == whole, "chunks \(sizes): \(chunked) but at once: \(whole)")
    let model = lengthPrefixModel(Array(input.bytes), limit: limit)
    fuzzCheck(whole == model, "decoder: \(whole) but model: \(model)")
    return 0
}

private func lengthPrefixModel(_ bytes: [UInt8], limit: Int) -> FrameStream {
    var result = FrameStream()
    var position = 0
    while bytes.count - position >= 4 {
        let length = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
        if length > limit {
            result.error = .frameTooLarge(length: length, limit: limit)
            return result
        }
        guard bytes.count - position - 4 >= length else { break }
        if length > 0 { result.frames.append(Array(bytes[(position + 4)..<(position + 4 + length)])) }
        position += 4 + length
    }
    return result
}
