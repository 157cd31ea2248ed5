import Foundation
import HTTPCore
import OSCQuery
import Parameters
import Testing

/// The namespace read by Python's `json` module and by python-oscquery 0.4.0's parser
/// (`OSCPathNode.from_json`), which `Scripts/install-deps.sh` installs. Without it the test
/// fails and says how to install it: it is never passed silently.
@Suite(.serialized) struct PythonInteropTests {
    private static let script = Fixtures.repository.appendingPathComponent(
        "Tests/OSCQueryTests/python/check_namespace.py")

    /// `KNOBLINK_PYTHON`, else the venv of the recipe (`.build/venv-oscquery`), else `python3`.
    private static var python: [String] {
        if let chosen = ProcessInfo.processInfo.environment["KNOBLINK_PYTHON"] { return [chosen] }
        let venv = Fixtures.repository.appendingPathComponent(".build/venv-oscquery/bin/python3").path
        if FileManager.default.isExecutableFile(atPath: venv) { return [venv] }
        return ["/usr/bin/env", "python3"]
    }

    private func run(_ files: [URL]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        let command = Self.python + [Self.script.path] + files.map(\.path)
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    private func write(_ responses: [(String, HTTPResponse)]) throws -> [URL] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "oscquery-interop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try responses.map { name, response in
            #expect(response.status == .ok, "\(name): \(response.status)")
            let file = directory.appendingPathComponent(name)
            try Data(response.body).write(to: file)
            return file
        }
    }

    private func check(_ tree: ParameterTree, root: String, nodes: [String]) throws -> [String] {
        let space = OSCQueryNamespace(tree: tree, rootPrefix: root)
        let hostInfo = space.response(to: Fixtures.get("/", query: "HOST_INFO"), hostInfo: Fixtures.hostInfo)
        let responses =
            [("host.json", hostInfo)]
            + nodes.enumerated().map {
                ("node\($0.offset).json", space.response(to: Fixtures.get($0.element), hostInfo: Fixtures.hostInfo))
            }
        let files = try write(responses)
        defer { try? FileManager.default.removeItem(at: files[0].deletingLastPathComponent()) }
        let result = try run(files)
        #expect(
            result.status == 0,
            "python-oscquery refused the namespace: \(result.errors) (install it: bash Scripts/install-deps.sh)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test func pythonOSCQueryReadsTheDefaultTree() throws {
        let tree = ParameterTree.makeDefault()
        let lines = try check(tree, root: "", nodes: ["/", "/knob", "/knob/gain"])
        let count = tree.allParameters.count
        #expect(lines == ["host test-instance 8000 UDP", "/ \(1 + 4 + count) \(count)", "/knob 4 3", "/knob/gain 1 1"])
    }

    @Test func pythonOSCQueryReadsARootPrefixedTreeWithIndexedAndReadOnlyParameters() throws {
        let tree = try Fixtures.twoVoices()
        let lines = try check(tree, root: "/inst1", nodes: ["/", "/inst1/voice1"])
        let count = tree.allParameters.count
        #expect(lines.count == 3)
        #expect(lines.dropFirst().first == "/ \(2 + tree.allGroups.count + count) \(count)")
    }

    @Test func pythonOSCQueryReadsAThousandParameters() throws {
        let tree = try Fixtures.large(groups: 10, perGroup: 100)
        let lines = try check(tree, root: "", nodes: ["/"])
        #expect(lines.last == "/ 1011 1000")
    }
}
