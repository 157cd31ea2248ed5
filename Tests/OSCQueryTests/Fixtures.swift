import Foundation
import HTTPCore
import OSCQuery
import Parameters

/// Trees and requests shared by the suites.
enum Fixtures {
    /// The repository's root, found from this file's path.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Examples/trees/two-voices.json`: indexed, read-only, bpm and linear-gain parameters.
    static func twoVoices() throws -> ParameterTree {
        try ParameterTree(contentsOf: repository.appendingPathComponent("Examples/trees/two-voices.json"))
    }

    /// `Examples/trees/default.json`, the same tree as the embedded one the CLI serves.
    static func defaultFile() throws -> ParameterTree {
        try ParameterTree(contentsOf: repository.appendingPathComponent("Examples/trees/default.json"))
    }

    /// A float as the parser reads its written text back: the `Double` of its shortest decimal.
    static func number(_ value: Float) -> OSCQueryJSON {
        .double(Double(value.description) ?? .nan)
    }

    static let hostInfo = OSCQueryHostInfo(name: "test-instance", oscPort: 8000, oscIP: "127.0.0.1")

    static func get(_ path: String, query: String? = nil, method: String = "GET") -> HTTPRequest {
        HTTPRequest(method: method, path: path, query: query)
    }

    static func json(_ response: HTTPResponse) throws -> OSCQueryJSON {
        try OSCQueryJSONParser(maximumSize: 1 << 24, maximumDepth: 64).parse(response.body)
    }

    /// A tree of `groups` groups of `perGroup` dB parameters each.
    static func large(groups: Int, perGroup: Int) throws -> ParameterTree {
        let specs: [ParameterNodeSpec] = (0..<groups).map { group in
            ParameterTree.createGroup(
                withIdentifier: "g\(group)", name: "Group \(group)",
                children: (0..<perGroup).map { index in
                    ParameterTree.createParameter(
                        withIdentifier: "p\(index)", name: "Parameter \(index)",
                        address: ParameterAddress(group * perGroup + index), min: -60, max: 12, unit: .decibels,
                        flags: [.readable, .writable], defaultValue: -6)
                })
        }
        return try ParameterTree(children: specs)
    }
}
