import FuzzSupport
import HTTPCore

/// Feeds the HTTP request parser the input in chunks whose sizes the first two bytes choose, and
/// checks the requests and the error against the whole input fed at once; every request parsed is
/// written again with `encoded()` and must parse back to itself, alone, with nothing left over.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequestParser(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let sizes = [1 + Int(input.takeByte() % 64), 1 + Int(input.takeByte() % 7)]
    // A small limit so that the fuzzer reaches the edge of the head's length often.
    let limit = 512
    let chunked = parse(input.chunks(sizes: sizes), limit: limit)
    let whole = parse([input.bytes], limit: limit)
    fuzzCheck(chunked == whole, "chunks \(sizes): \(chunked) but at once: \(whole)")
    for request in whole.requests {
        let again = parse([ArraySlice(request.encoded())], limit: Int.max)
        fuzzCheck(
            again.requests == [request] && again.error == nil && again.left.isEmpty,
            "\(request) written again parses as \(again)")
    }
    return 0
}

private struct Outcome: Equatable {
    var requests: [HTTPRequest] = []
    var error: HTTPParseError?
    var left: [UInt8] = []
}

private func parse(_ chunks: [ArraySlice<UInt8>], limit: Int) -> Outcome {
    var parser = HTTPRequestParser(maximumHeadLength: limit)
    var outcome = Outcome()
    var buffer: [UInt8] = []
    for chunk in chunks {
        buffer.append(contentsOf: chunk)
        do {
            while let request = try parser.decode(buffer: &buffer) { outcome.requests.append(request) }
        } catch {
            outcome.error = error
            return outcome
        }
    }
    outcome.left = buffer
    return outcome
}
