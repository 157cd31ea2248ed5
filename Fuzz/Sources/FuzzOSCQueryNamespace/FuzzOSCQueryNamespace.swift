import FuzzSupport
import OSCQuery
import Parameters

@testable import RemoteTree

/// Reads the input as an OSCQuery server's namespace, as the mirror does (`GET /` of
/// `knoblink surface http://`), and checks that every namespace the listing takes builds a tree
/// or is refused with an error, never a crash; that the tree has one parameter per path, each
/// with its range and value inside it; and that no more than the node limit is taken.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOSCQueryNamespace(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let parser = OSCQueryJSONParser(maximumSize: 1 << 16, maximumDepth: 40)
    guard let json = try? parser.parse(bytes) else { return 0 }
    let limit = 64
    guard let listing = try? OSCQueryListing(namespace: json, maximumNodes: limit) else { return 0 }
    fuzzCheck(listing.paths.count == listing.listing.entries.count, "paths and entries differ")
    fuzzCheck(listing.paths.count == listing.types.count, "paths and types differ")
    fuzzCheck(listing.paths.count <= limit, "\(listing.paths.count) parameters over the limit")
    guard let specs = try? listing.listing.specs(), let tree = try? ParameterTree(children: specs) else { return 0 }
    fuzzCheck(tree.allParameters.count == listing.paths.count, "\(tree.allParameters.count) of \(listing.paths.count)")
    for parameter in tree.allParameters {
        fuzzCheck(parameter.minValue < parameter.maxValue, "range \(parameter.minValue)…\(parameter.maxValue)")
        fuzzCheck(
            parameter.value >= parameter.minValue && parameter.value <= parameter.maxValue,
            "value \(parameter.value) outside \(parameter.minValue)…\(parameter.maxValue)")
    }
    return 0
}
