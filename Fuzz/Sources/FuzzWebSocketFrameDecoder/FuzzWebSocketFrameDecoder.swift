import FuzzSupport
import HTTPCore

/// Feeds the WebSocket decoder the input in chunks whose sizes the first two bytes choose, with a
/// message limit and a role (the server's decoder, or a client's) the third byte chooses, and checks that the messages and the error are those of
/// the whole input fed at once, that no message passes the limit, that the decoder keeps at most
/// a header's start in the buffer, and that the messages, encoded again (and masked, for the
/// server's decoder), decode to themselves.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketFrameDecoder(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let sizes = [1 + Int(input.takeByte() % 32), 1 + Int(input.takeByte() % 7)]
    let third = input.takeByte()
    let limit = Int(third >> 1) * 8
    let role: WebSocketRole = third & 1 == 0 ? .server : .client
    let chunked = decode(input.chunks(sizes: sizes), limit: limit, role: role)
    let whole = decode([input.bytes], limit: limit, role: role)
    fuzzCheck(chunked == whole, "chunks \(sizes): \(chunked) but at once: \(whole)")
    let encoder = WebSocketFrameEncoder()
    let again = whole.messages.flatMap { role == .server ? mask(encoder.encode($0)) : encoder.encode($0) }
    let reread = decode([again[...]], limit: limit, role: role)
    fuzzCheck(reread == Outcome(messages: whole.messages), "re-encoded: \(reread) but first: \(whole)")
    return 0
}

private struct Outcome: Equatable, CustomStringConvertible {
    var messages: [WebSocketMessage] = []
    var error: WebSocketError?

    var description: String { "\(messages.count) messages, error \(error.map { "\($0)" } ?? "none")" }
}

private func decode(_ chunks: [ArraySlice<UInt8>], limit: Int, role: WebSocketRole) -> Outcome {
    var outcome = Outcome()
    var decoder = WebSocketFrameDecoder(maximumMessageLength: limit, role: role)
    var buffer: [UInt8] = []
    for chunk in chunks {
        buffer += chunk
        do {
            while let message = try decoder.decode(buffer: &buffer) {
                switch message {
                case .text(let text): fuzzCheck(text.utf8.count <= limit, "text of \(text.utf8.count) bytes")
                case .binary(let bytes): fuzzCheck(bytes.count <= limit, "binary of \(bytes.count) bytes")
                case .ping(let bytes), .pong(let bytes): fuzzCheck(bytes.count <= 125, "control of \(bytes.count)")
                case .close: break
                }
                outcome.messages.append(message)
            }
        } catch {
            outcome.error = error
            return outcome
        }
        fuzzCheck(decoder.hasReceivedClose || buffer.count < 14, "\(buffer.count) bytes left in the buffer")
    }
    return outcome
}

// A server frame as a client would send it: MASK set, a key after the length, the payload masked.
private func mask(_ frame: [UInt8]) -> [UInt8] {
    WebSocketFrameEncoder.masked(frame, key: [0x5A, 0xC3, 0x00, 0x81])
}
