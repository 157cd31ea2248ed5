import Foundation

/// Finds and runs the programs the tests drive: the built `knoblink`, liblo's tools, python3.
enum Tool {
    /// The `knoblink` binary of this build, next to the test bundle.
    static let knoblink: URL = {
        let besideBundle = Bundle.main.bundleURL.appendingPathComponent("knoblink")
        if FileManager.default.isExecutableFile(atPath: besideBundle.path) { return besideBundle }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.appendingPathComponent(".build/debug/knoblink")
    }()

    /// A program found on `PATH` as a shell finds it (python3 may be pyenv's, which has python-osc),
    /// else in /usr/bin.
    static func system(_ name: String) -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin", "/bin"] {
            let url = URL(fileURLWithPath: directory).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return URL(fileURLWithPath: "/usr/bin/\(name)")
    }

    /// The outcome of a program that ran to its end.
    struct Result: Equatable {
        var status: Int32?
        var stdout: String
        var stderr: String
    }

    /// Runs a program to its end, with `input` on its standard input.
    static func run(_ executable: URL, _ arguments: [String], input: String? = nil) throws -> Result {
        let process = try RunningProcess(executable, arguments)
        if let input { process.write(input) }
        process.closeInput()
        let status = process.waitForExit()
        return Result(status: status, stdout: process.stdout, stderr: process.stderr)
    }

    /// Runs `knoblink` to its end.
    static func knoblink(_ arguments: String..., input: String? = nil) throws -> Result {
        try run(knoblink, arguments, input: input)
    }
}
