import OSCCore

/// One subscription of a peer: which parameters, how often, in which forms (PROTOCOL.md section 3).
struct Subscription {
    /// Subscription flag bits.
    enum Flag {
        static let normalized: UInt8 = 1
        static let strings: UInt8 = 2
        static let raw: UInt8 = 4
        static let echoToSelf: UInt8 = 8
        static let touch: UInt8 = 16
        static let all: UInt8 = 31
    }

    /// The pattern as given (`""` for every parameter).
    var patternText: String
    /// The compiled pattern, `nil` for every parameter.
    var pattern: OSCAddressPattern?
    /// Seconds between two sends of one address; 0 for no limit.
    var interval: Double
    /// The flag bits (only the five defined ones).
    var flags: UInt8
    /// Made by rule 9.7 rather than by `/sys/subscribe`.
    var isImplicit: Bool
    /// A WebSocket LISTEN (PROTOCOL.md section 7): the parameter at this path, or every one
    /// below it when it is a container; `nil` for a `/sys/subscribe` pattern.
    var listenPath: String? = nil

    /// Whether this is a WebSocket LISTEN (of a path, or of `/`, which has no ``listenPath``).
    var isListen: Bool { patternText.hasPrefix(Self.listenPrefix) }
    static let listenPrefix = "LISTEN "

    /// Whether the parameter at `address` is one this subscription sends.
    func matches(_ address: String) -> Bool {
        if let listenPath { return address == listenPath || address.hasPrefix(listenPath + "/") }
        guard let pattern else { return true }
        return pattern.matches(address)
    }
}
