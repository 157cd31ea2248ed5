import CLibLOServer

/// The liblo reference server (Sources/CLibLOServer), on a thread of its own in this process.
enum LibLOReference {
    static let name = "liblo ref"

    static func start(parameters: Int) -> ServerUnderTest {
        guard let server = kb_ref_start(Int32(parameters), 0) else { fatalError("liblo reference server: no socket") }
        return ServerUnderTest(
            name: name, port: kb_ref_port(server), applied: { kb_ref_applied(server) },
            stop: { kb_ref_stop(server) })
    }
}
