import OSCTransport

/// The peers a server accepts packets from (PROTOCOL.md section 1): by default loopback,
/// private and link-local ranges; `--allow CIDR` (repeatable) replaces them, `--allow any`
/// opens the list.
public struct AllowList: Sendable, Hashable, CustomStringConvertible {
    /// The blocks accepted; ignored when ``allowsAny`` is set.
    public private(set) var blocks: [CIDR]
    /// Whether every address is accepted.
    public private(set) var allowsAny: Bool

    /// Accepts the addresses in `blocks` (none, if it is empty).
    public init(_ blocks: [CIDR]) {
        self.blocks = blocks
        allowsAny = false
    }

    /// Accepts every address.
    public static let any: AllowList = {
        var list = AllowList([])
        list.allowsAny = true
        return list
    }()

    /// Loopback alone: `127.0.0.0/8` and `::1` (the default of `--trust`).
    public static let loopback = AllowList(
        [
            CIDR(addressBytes: [127, 0, 0, 0], prefixLength: 8)!,
            CIDR(addressBytes: [UInt8](repeating: 0, count: 15) + [1], prefixLength: 128)!,
        ])

    /// Loopback, private and link-local ranges of both families: `127.0.0.0/8`, `::1`, `10/8`,
    /// `172.16/12`, `192.168/16`, `169.254/16`, `fc00::/7`, `fe80::/10`.
    public static let privateRanges = AllowList(
        loopback.blocks + [
            CIDR(addressBytes: [10, 0, 0, 0], prefixLength: 8)!,
            CIDR(addressBytes: [172, 16, 0, 0], prefixLength: 12)!,
            CIDR(addressBytes: [192, 168, 0, 0], prefixLength: 16)!,
            CIDR(addressBytes: [169, 254, 0, 0], prefixLength: 16)!,
            CIDR(addressBytes: [0xFC] + [UInt8](repeating: 0, count: 15), prefixLength: 7)!,
            CIDR(addressBytes: [0xFE, 0x80] + [UInt8](repeating: 0, count: 14), prefixLength: 10)!,
        ])

    /// Parses `--allow` values: CIDR blocks, or `any` (case-insensitive) to accept everything.
    /// - Throws: ``CIDRError`` for the first text that is not a block.
    public init(parsing texts: [String]) throws(CIDRError) {
        var blocks: [CIDR] = []
        var allowsAny = false
        for text in texts {
            if text.lowercased() == "any" {
                allowsAny = true
            } else {
                blocks.append(try CIDR(parsing: text))
            }
        }
        self.blocks = blocks
        self.allowsAny = allowsAny
    }

    /// Whether packets from `address` are accepted (IPv4-mapped IPv6 addresses match IPv4 blocks).
    public func contains(_ address: OSCSocketAddress) -> Bool {
        if allowsAny { return true }
        let bytes = address.addressBytes
        return blocks.contains { $0.contains(addressBytes: bytes) }
    }

    /// `any`, or the blocks separated by `, `.
    public var description: String {
        allowsAny ? "any" : blocks.map(\.description).joined(separator: ", ")
    }
}
