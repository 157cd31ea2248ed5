/// A python peer that did not print its first line.
struct PythonPeerError: Error, CustomStringConvertible {
    var script: String
    var stderr: String
    var description: String { "\(script) did not start: \(stderr)" }
}
