import OSCCore

/// The hop list of a forwarded bundle (PROTOCOL.md section 6, rule 9.10):
/// `/sys/via i ttl s id1 s id2 …`, the first message of every bundle sent over a link.
///
/// The originating instance sends ``defaultTTL`` and its own name; each instance that forwards
/// appends its name and sends `ttl − 1`; an instance drops a bundle that already names it, and
/// does not forward one that arrives with ttl 0.
public struct ViaHeader: Sendable, Hashable, CustomStringConvertible {
    /// `/sys/via`.
    public static let address = "/sys/via"
    /// The ttl an originating instance sends.
    public static let defaultTTL = 8
    /// The most names a header may carry; a longer list is refused (it cannot come from a
    /// well-behaved chain, and each name costs bytes in every datagram after it).
    public static let maximumHops = 255

    /// Hops left: 0 means apply, do not forward.
    public var ttl: Int
    /// The names of the instances the values passed, the originating one first.
    public var instances: [String]

    /// A header with the given ttl and names.
    public init(ttl: Int = ViaHeader.defaultTTL, instances: [String]) {
        self.ttl = ttl
        self.instances = instances
    }

    /// The header an instance named `name` puts on its own changes: ttl 8, its name alone.
    public static func originating(from name: String) -> ViaHeader {
        ViaHeader(ttl: defaultTTL, instances: [name])
    }

    /// Reads a `/sys/via` message.
    /// - Throws: ``ViaHeaderError/noViaHeader`` for another address,
    ///   ``ViaHeaderError/invalidHeader(reason:)`` for bad arguments.
    public init(_ message: OSCMessage) throws(ViaHeaderError) {
        guard message.address == ViaHeader.address else { throw .noViaHeader }
        guard let first = message.arguments.first else { throw .invalidHeader(reason: "no ttl") }
        guard case .int32(let ttl) = first else {
            throw .invalidHeader(
                reason: "the ttl must be an int32 ('i'), got '\(Character(Unicode.Scalar(first.typeTag)))'")
        }
        guard ttl >= 0 else { throw .invalidHeader(reason: "negative ttl \(ttl)") }
        guard message.arguments.count - 1 <= ViaHeader.maximumHops else {
            throw .invalidHeader(reason: "more than \(ViaHeader.maximumHops) names")
        }
        var names: [String] = []
        names.reserveCapacity(message.arguments.count - 1)
        for (position, argument) in message.arguments.dropFirst().enumerated() {
            switch argument {
            case .string(let name), .symbol(let name): names.append(name)
            default:
                throw .invalidHeader(reason: "name \(position + 1) is not a string")
            }
        }
        self.ttl = Int(ttl)
        instances = names
    }

    /// The header as a message.
    public var message: OSCMessage {
        OSCMessage(ViaHeader.address, [.int32(Int32(clamping: ttl))] + instances.map { .string($0) })
    }

    /// Whether `name` is among the instances passed.
    public func names(_ name: String) -> Bool {
        instances.contains(name)
    }

    /// The header an instance named `name` sends on: `ttl − 1` and its name appended, or `nil`
    /// when the ttl is 0 (apply, do not forward).
    public func forwarded(by name: String) -> ViaHeader? {
        guard ttl > 0 else { return nil }
        return ViaHeader(ttl: ttl - 1, instances: instances + [name])
    }

    /// `via ttl 7 [a:8000, b:8001]`.
    public var description: String {
        "via ttl \(ttl) [\(instances.joined(separator: ", "))]"
    }
}
