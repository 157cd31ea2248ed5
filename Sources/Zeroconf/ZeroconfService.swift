/// One DNS-SD service of an instance: its type, the port it listens on and its TXT record.
///
/// Every service of a ``ZeroconfAdvertiser`` is published under the advertiser's one service
/// name, so that a controller sees one instance with an OSC port and an OSCQuery port.
public struct ZeroconfService: Sendable, Equatable {
    /// The DNS-SD service types KnobLink publishes.
    public enum Kind: String, Sendable, CaseIterable {
        /// OSC over UDP: `_osc._udp`, the port that takes OSC datagrams.
        case osc = "_osc._udp"
        /// OSCQuery: `_oscjson._tcp`, the HTTP port that serves the namespace as JSON.
        case oscQuery = "_oscjson._tcp"
    }

    /// The service type.
    public var kind: Kind
    /// The port the service listens on.
    public var port: UInt16
    /// The TXT record's keys and values.
    ///
    /// Published as `key=value` strings, `txtvers` first (RFC 6763 §6.7), then the other keys
    /// in byte order, so that the record does not change from one run to the next.
    public var txt: [String: String]

    /// A service of `kind` on `port` with the TXT record `txt`.
    public init(kind: Kind, port: UInt16, txt: [String: String] = ["txtvers": "1"]) {
        self.kind = kind
        self.port = port
        self.txt = txt
    }

    /// An `_osc._udp` service on `port`.
    public static func osc(port: UInt16, txt: [String: String] = ["txtvers": "1"]) -> Self {
        Self(kind: .osc, port: port, txt: txt)
    }

    /// An `_oscjson._tcp` (OSCQuery) service on `port`.
    public static func oscQuery(port: UInt16, txt: [String: String] = ["txtvers": "1"]) -> Self {
        Self(kind: .oscQuery, port: port, txt: txt)
    }

    /// The TXT record's strings in publishing order: `txtvers` first, then by key.
    var txtStrings: [String] {
        txt.sorted { lhs, rhs in
            if lhs.key == "txtvers" || rhs.key == "txtvers" { return lhs.key == "txtvers" && rhs.key != "txtvers" }
            return Array(lhs.key.utf8).lexicographicallyPrecedes(rhs.key.utf8)
        }
        .map { "\($0.key)=\($0.value)" }
    }
}
