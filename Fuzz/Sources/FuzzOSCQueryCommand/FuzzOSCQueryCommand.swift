import FuzzSupport
import OSCQuery
import Parameters

private let namespace = OSCQueryNamespace(tree: ParameterTree.makeDefault(), rootPrefix: "/inst1")

/// Parses the input as a WebSocket text command and as JSON, and checks that an error's offset
/// lies inside the input, that parsed JSON written again parses to the same value (and the same
/// text), that a command parses the same from its JSON written again, and that a listened path
/// resolves to a range inside the tree or to nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOSCQueryCommand(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let parser = OSCQueryCommand.parser
    do {
        let json = try parser.parse(bytes)
        if isFinite(json) {
            let text = json.text
            do {
                let again = try OSCQueryJSONParser(maximumSize: 1 << 22, maximumDepth: parser.maximumDepth).parse(text)
                fuzzCheck(again == json, "\(text) parsed again as \(again)")
                fuzzCheck(again.text == text, "\(text) written again as \(again.text)")
            } catch {
                fuzzCheck(false, "\(text), written from parsed input, does not parse: \(error)")
            }
        }
    } catch {
        fuzzCheck(error.offset <= count, "error \(error) past the end of \(count) bytes")
    }
    do {
        let command = try OSCQueryCommand(utf8: bytes)
        switch command {
        case .listen(let path), .ignore(let path):
            fuzzCheck(path.hasPrefix("/"), "a path without /: \(path)")
            if let range = namespace.parameterIndices(listeningTo: path) {
                fuzzCheck(range.upperBound <= namespace.tree.allParameters.count, "\(path) resolved to \(range)")
            }
        case .startOSCStreaming(let port, _):
            fuzzCheck(port != 0, "port 0 accepted")
        }
    } catch {
        if case .invalidJSON(let json) = error { fuzzCheck(json.offset <= count, "error \(json) past the end") }
    }
    return 0
}

/// Whether every number in `value` is finite: a huge exponent parses to infinity, written as `null`.
private func isFinite(_ value: OSCQueryJSON) -> Bool {
    switch value {
    case .double(let number): number.isFinite
    case .float(let number): number.isFinite
    case .array(let elements): elements.allSatisfy(isFinite)
    case .object(let members): members.allSatisfy { isFinite($0.value) }
    default: true
    }
}
