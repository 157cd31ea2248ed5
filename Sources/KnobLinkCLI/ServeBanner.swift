import KnobLink
import OSCTransport

/// What `knoblink serve` prints once it listens: the ready line, the urls that reach it, where
/// replies go, and how to stop it.
///
/// ```
/// Listening on UDP and TCP port 8000
///   osc.udp://192.168.1.20:8000/  from the network (eth0)
///   osc.udp://127.0.0.1:8000/  from this machine
/// Replies and feedback go to port 9000 at the sender's address (TouchOSC: receive port 9000).
/// Web page: http://192.168.1.20:8000/ui  (OSCQuery: http://192.168.1.20:8000/)
/// Stop the server with Ctrl-C.
/// ```
///
/// A new user's first questions are which address to type into the phone and why nothing comes
/// back; the ready line alone answers neither. The network addresses come first, because only
/// they reach the server from a phone; 127.0.0.1 follows because a second terminal on this
/// machine uses it. `::1` and IPv6 link-local addresses are left out: the loopback is already
/// there as 127.0.0.1, and a link-local address needs a `%scope` that OSC apps do not take.
struct ServeBanner {
    /// The port bound.
    var port: UInt16
    /// `--bind`: `nil` (every interface, IPv6 and IPv4), a wildcard, or one address.
    var bindHost: String?
    /// Where replies and feedback to UDP peers go.
    var feedbackPort: FeedbackPort
    /// The machine's interface addresses, from ``OSCInterfaceAddress/all()``.
    var interfaces: [OSCInterfaceAddress]

    /// The lines, each ending in a newline; the first is the ready line that scripts wait for.
    var text: String {
        var lines = ["Listening on UDP and TCP port \(port)"]
        let reachable = reachableHosts
        lines += reachable.map { "  osc.udp://\(Self.urlHost($0.host)):\(port)/  \($0.label)" }
        if !reachable.contains(where: { $0.fromNetwork }) {
            lines.append("  (no other machine can reach it: \(noNetworkReason))")
        }
        switch feedbackPort {
        case .fixed(let feedback):
            lines.append(
                "Replies and feedback go to port \(feedback) at the sender's address (TouchOSC: receive port \(feedback))."
            )
        case .auto:
            lines.append("Replies and feedback go back to the port each packet came from.")
        }
        if let host = reachable.first.map({ Self.urlHost($0.host) }) {
            // The first address: a phone's browser on the network, or this machine's.
            lines.append("Web page: http://\(host):\(port)/ui  (OSCQuery: http://\(host):\(port)/)")
        }
        lines.append("Stop the server with Ctrl-C.")
        return lines.map { $0 + "\n" }.joined()
    }

    /// The hosts a peer may send to, network ones first, with a label saying from where.
    private var reachableHosts: [(host: String, label: String, fromNetwork: Bool)] {
        let wildcardFamilies: Set<OSCSocketAddress.Family>? =
            switch bindHost {
            case nil, "::", "[::]": [.ipv4, .ipv6]
            case "0.0.0.0": [.ipv4]
            default: nil
            }
        guard let families = wildcardFamilies else {
            let host = bindHost ?? ""
            let isLoopback = interfaces.contains { $0.isLoopback && $0.address.host == host } || host == "localhost"
            return [(host, isLoopback ? "from this machine" : "from the network", !isLoopback)]
        }
        let usable = interfaces.filter { families.contains($0.address.family) && !$0.isLinkLocal }
        let network = usable.filter { !$0.isLoopback }.map {
            (host: $0.address.host, label: "from the network (\($0.interface))", fromNetwork: true)
        }
        let loopback = usable.contains { $0.isLoopback && $0.address.host == "127.0.0.1" }
        return network + (loopback ? [(host: "127.0.0.1", label: "from this machine", fromNetwork: false)] : [])
    }

    private var noNetworkReason: String {
        switch bindHost {
        case nil, "::", "[::]", "0.0.0.0": "no network interface is up"
        default: "it listens on a loopback address; --bind 0.0.0.0 listens on every interface"
        }
    }

    /// An IPv6 address in a url goes in brackets.
    private static func urlHost(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
}
