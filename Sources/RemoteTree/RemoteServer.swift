import OSCTransport

/// A server that a ``RemoteParameterTree`` mirrors, and the protocol it is read with.
public enum RemoteServer: Sendable, Hashable, CustomStringConvertible {
    /// A KnobLink server over OSC: `osc.udp://host:port/` or `osc.tcp://host:port/`.
    case osc(OSCURL)
    /// Any OSCQuery server, at its HTTP port: `http://host:port/`.
    case oscQuery(host: String, port: UInt16)

    /// Reads `osc.udp://…`, `osc.tcp://…` or `http://host:port/` (the port defaults to 80; a
    /// path after the port is ignored, since the namespace is always read from `/`).
    /// - Throws: ``RemoteTreeError/invalidURL(_:reason:)``.
    public static func parse(_ text: String) throws(RemoteTreeError) -> RemoteServer {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("http://") else {
            do {
                return .osc(try OSCURL.parse(text))
            } catch {
                throw .invalidURL(text, reason: "\(error)")
            }
        }
        var rest = Substring(text.dropFirst("http://".count))
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        var host = rest
        var port: UInt16 = 80
        if rest.hasPrefix("[") {
            // [::1]:8080
            guard let close = rest.firstIndex(of: "]") else {
                throw .invalidURL(text, reason: "an IPv6 host lacks its ']'")
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") {
                guard let number = UInt16(after.dropFirst()), number != 0 else {
                    throw .invalidURL(text, reason: "the port must be 1 to 65535")
                }
                port = number
            } else if !after.isEmpty {
                throw .invalidURL(text, reason: "expected ':port' after the host")
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let number = UInt16(rest[rest.index(after: colon)...]), number != 0 else {
                throw .invalidURL(text, reason: "the port must be 1 to 65535")
            }
            port = number
        }
        guard !host.isEmpty else { throw .invalidURL(text, reason: "the host is missing") }
        return .oscQuery(host: String(host), port: port)
    }

    /// The URL as it is written.
    public var description: String {
        switch self {
        case .osc(let url): url.description
        case .oscQuery(let host, let port): host.contains(":") ? "http://[\(host)]:\(port)/" : "http://\(host):\(port)/"
        }
    }
}
