/// Why a URL or host could not be turned into a socket address.
public enum OSCSocketAddressError: Error, Sendable, Hashable {
    /// The text is not an `osc.udp://host:port/` or `osc.tcp://host:port/` URL; `reason` says why.
    case invalidURL(String, reason: String)
    /// `getaddrinfo` found no IPv4 or IPv6 address for the host.
    case unresolvedHost(String, reason: String)
}
