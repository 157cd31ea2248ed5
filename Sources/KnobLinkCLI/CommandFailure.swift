/// A failure while a command runs (a host that does not resolve, a port in use); the tool prints
/// `Error: ` and the message on stderr and exits 1.
struct CommandFailure: Error, Sendable, Equatable {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
