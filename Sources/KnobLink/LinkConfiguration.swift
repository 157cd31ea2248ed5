import OSCTransport

/// A link given at start: `--link URL` (two-way) or `--link-one-way URL`.
public struct LinkConfiguration: Sendable, Hashable {
    /// The far instance: `osc.udp://host:port/`.
    public var url: OSCURL
    /// Whether the far side is asked to link back (`--link`), or values only go there
    /// (`--link-one-way`).
    public var twoWay: Bool
    /// Seconds between two `/sys/link` announcements of a two-way link while the far side has
    /// sent nothing (default 30, rule 9.10).
    public var announceInterval: Double

    /// A link to `url`.
    public init(url: OSCURL, twoWay: Bool = true, announceInterval: Double = 30) {
        self.url = url
        self.twoWay = twoWay
        self.announceInterval = announceInterval
    }

    /// Parses `--link` text.
    /// - Throws: `OSCSocketAddressError/invalidURL(_:reason:)`.
    public init(parsing text: String, twoWay: Bool = true) throws(OSCSocketAddressError) {
        self.init(url: try OSCURL.parse(text), twoWay: twoWay)
    }
}
