/// An OSC bundle: a time tag and elements, each a message or a bundle.
public struct OSCBundle: Sendable, Hashable {
    /// When the elements should take effect; ``OSCTimeTag/immediately`` for at once.
    public var timeTag: OSCTimeTag
    /// The elements, in order.
    public var elements: [OSCPacket]

    /// Creates a bundle.
    /// - Parameters:
    ///   - timeTag: when the elements should take effect.
    ///   - elements: the messages and bundles it contains.
    public init(timeTag: OSCTimeTag = .immediately, _ elements: [OSCPacket] = []) {
        self.timeTag = timeTag
        self.elements = elements
    }
}
