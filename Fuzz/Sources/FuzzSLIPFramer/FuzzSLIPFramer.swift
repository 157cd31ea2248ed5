import FuzzSupport
import OSCCore

/// Feeds the SLIP decoder the input in chunks whose sizes the first two bytes choose, and checks
/// the frames and the error against the whole input fed at once and against a plain model of
/// RFC 1055 as OSC 1.1 uses it (END at both ends, empty frames skipped).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSLIPFramer(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let sizes = [1 + Int(input.takeByte() % 32), 1 + Int(input.takeByte() % 7)]
    let limit = 64
    let chunked = FrameStream.decode(input.chunks(sizes: sizes), framing: .slip, maximumFrameLength: limit)
    let whole = FrameStream.decode([input.bytes], framing: .slip, maximumFrameLength: limit)
    fuzzCheck(chunked == whole, "chunks \(sizes): \(chunked) but at once: \(whole)")
    let model = slipModel(input.bytes, limit: limit)
    fuzzCheck(whole == model, "decoder: \(whole) but model: \(model)")
    return 0
}

private func slipModel(_ bytes: ArraySlice<UInt8>, limit: Int) -> FrameStream {
    var result = FrameStream()
    var frame: [UInt8] = []
    var escaping = false
    for var byte in bytes {
        if escaping {
            escaping = false
            switch byte {
            case 0xDC: byte = 0xC0
            case 0xDD: byte = 0xDB
            default:
                result.error = .invalidEscape(byte: byte, offset: frame.count)
                return result
            }
        } else if byte == 0xC0 {
            if !frame.isEmpty { result.frames.append(frame) }
            frame = []
            continue
        } else if byte == 0xDB {
            escaping = true
            continue
        }
        if frame.count >= limit {
            result.error = .frameTooLarge(length: frame.count + 1, limit: limit)
            return result
        }
        frame.append(byte)
    }
    return result
}
