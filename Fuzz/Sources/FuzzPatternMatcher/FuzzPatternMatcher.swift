import FuzzSupport
import OSCCore

/// Splits the input at its first NUL into a pattern and an address (at most 512 bytes each) and
/// checks the matcher against what must hold whatever its algorithm: the validating and the
/// pre-validated entry points agree; a pattern without wildcards matches only itself; an address
/// matches itself; the dispatcher's part tree reaches a method exactly when the matcher says so;
/// and for patterns made only of literals, `?` and `*`, a plain per-part model agrees.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPatternMatcher(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    let split = input.firstIndex(of: 0) ?? input.count
    let patternBytes = Array(input[..<split].prefix(512))
    let addressBytes = split < input.count ? Array(input[(split + 1)...].prefix(512)) : patternBytes

    let pattern = try? OSCAddressPattern(bytes: patternBytes)
    let checked = patternBytes.withUnsafeBytes { p in
        addressBytes.withUnsafeBytes { a in try? OSCAddressPattern.matches(pattern: p, address: a) }
    }
    guard let pattern else {
        fuzzCheck(checked == nil, "an invalid pattern was matched by matches(pattern:address:)")
        return 0
    }
    let matches = addressBytes.withUnsafeBytes { pattern.matches($0) }
    fuzzCheck(
        checked == matches, "matches(pattern:address:) says \(String(describing: checked)), matches(_:) \(matches)")
    // Every valid pattern starts with `/`, so an address that does not can never match.
    guard addressBytes.first == UInt8(ascii: "/") else {
        fuzzCheck(!matches, "an address without a leading slash was matched")
        return 0
    }
    if !pattern.hasWildcards {
        fuzzCheck(matches == (patternBytes == addressBytes), "a pattern without wildcards matched another address")
    }
    if patternBytes.allSatisfy({ $0 != UInt8(ascii: "[") && $0 != UInt8(ascii: "{") }),
        !containsDoubleSlash(patternBytes)
    {
        let model = starQuestionModel(patternBytes, addressBytes)
        fuzzCheck(matches == model, "matcher says \(matches), the * ? model says \(model)")
    }

    let addressIsValid = addressBytes.withUnsafeBytes { (try? OSCAddressPattern.validate(address: $0)) != nil }
    guard addressIsValid else { return 0 }
    let itself = try! OSCAddressPattern(bytes: addressBytes)
    fuzzCheck(!itself.hasWildcards, "a valid address reports wildcards")
    fuzzCheck(addressBytes.withUnsafeBytes { itself.matches($0) }, "an address does not match itself")

    let dispatcher = OSCDispatcher()
    var reached = 0
    try! dispatcher.register(String(decoding: addressBytes, as: UTF8.self)) { _ in reached += 1 }
    let message = OSCMessage(String(decoding: patternBytes, as: UTF8.self)).encoded()
    message.withUnsafeBytes { bytes in
        guard let view = try? OSCMessageView(bytes) else { return }
        _ = try? dispatcher.dispatch(view)
    }
    fuzzCheck(reached == (matches ? 1 : 0), "the dispatcher reached \(reached) handlers, the matcher says \(matches)")
    return 0
}

private func containsDoubleSlash(_ bytes: [UInt8]) -> Bool {
    zip(bytes, bytes.dropFirst()).contains { $0 == UInt8(ascii: "/") && $1 == UInt8(ascii: "/") }
}

// OSC 1.0 for literals, `?` and `*`: the same number of parts, and each part matches, `?` being one
// byte and `*` any run of bytes (neither crossing `/`, which the split into parts ensures).
private func starQuestionModel(_ pattern: [UInt8], _ address: [UInt8]) -> Bool {
    let patternParts = pattern.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    let addressParts = address.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    guard patternParts.count == addressParts.count else { return false }
    return zip(patternParts, addressParts).allSatisfy { partMatches(Array($0), Array($1)) }
}

private func partMatches(_ pattern: [UInt8], _ text: [UInt8]) -> Bool {
    // can[j]: the pattern read so far matches the first j bytes of text.
    var can = [Bool](repeating: false, count: text.count + 1)
    can[0] = true
    for byte in pattern {
        var next = [Bool](repeating: false, count: text.count + 1)
        if byte == UInt8(ascii: "*") {
            var any = false
            for j in 0...text.count {
                any = any || can[j]
                next[j] = any
            }
        } else {
            for j in 0..<text.count where can[j] && (byte == UInt8(ascii: "?") || byte == text[j]) {
                next[j + 1] = true
            }
        }
        can = next
    }
    return can[text.count]
}
