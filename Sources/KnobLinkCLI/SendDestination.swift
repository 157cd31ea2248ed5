import OSCTransport

/// Where `send` delivers: a receiver on the network, or, as `oscsend` allows, a file or
/// standard output, which get the packets' bytes as they are.
enum SendDestination: Sendable, Equatable {
    case network(OSCURL)
    /// `file:///path`: the file is created or emptied, then gets every packet in turn.
    case file(String)
    /// `-`: every packet's bytes on standard output.
    case standardOutput
}
