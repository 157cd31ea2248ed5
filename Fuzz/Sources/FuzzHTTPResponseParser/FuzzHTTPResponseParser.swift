import FuzzSupport
import HTTPCore

/// Feeds the client's HTTP response parser the input in chunks whose sizes the first two bytes
/// choose, then ends the connection, and checks the responses and the error against the whole
/// input fed at once; that no body passes the limit; that a 101 leaves what follows it; and that
/// a response with a Content-Length has a body of exactly that length.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPResponseParser(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let sizes = [1 + Int(input.takeByte() % 64), 1 + Int(input.takeByte() % 7)]
    // Small limits so that the fuzzer reaches both edges often.
    let chunked = parse(input.chunks(sizes: sizes))
    let whole = parse([input.bytes])
    fuzzCheck(chunked == whole, "chunks \(sizes): \(chunked) but at once: \(whole)")
    for response in whole.responses {
        fuzzCheck(response.body.count <= bodyLimit, "a body of \(response.body.count) bytes")
        if let length = response.headers["Content-Length"], let declared = Int(length), response.status >= 200,
            response.status != 204, response.status != 304
        {
            fuzzCheck(response.body.count == declared, "Content-Length \(declared), body \(response.body.count)")
        }
    }
    return 0
}

private let headLimit = 512
private let bodyLimit = 1024

private struct Outcome: Equatable {
    var responses: [HTTPReceivedResponse] = []
    var error: HTTPResponseError?
    var left: [UInt8] = []
}

private func parse(_ chunks: [ArraySlice<UInt8>]) -> Outcome {
    var parser = HTTPResponseParser(maximumHeadLength: headLimit, maximumBodyLength: bodyLimit)
    var outcome = Outcome()
    var buffer: [UInt8] = []
    do {
        for (index, chunk) in chunks.enumerated() {
            buffer.append(contentsOf: chunk)
            while let response = try parser.decode(buffer: &buffer) {
                outcome.responses.append(response)
                // After a 101 the bytes are another protocol's: what is left, and what is still to come.
                if response.status == 101 {
                    outcome.left = buffer + chunks[(index + 1)...].joined()
                    return outcome
                }
            }
        }
        if let last = try parser.finish(buffer: &buffer) { outcome.responses.append(last) }
    } catch {
        outcome.error = error
        return outcome
    }
    outcome.left = buffer
    return outcome
}
