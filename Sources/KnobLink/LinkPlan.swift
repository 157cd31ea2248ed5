import OSCTransport

/// What to do with a link bundle that was not dropped: which values to apply, and where the
/// values that end up changing a parameter go next.
public struct LinkPlan: Sendable, Hashable {
    /// The values that differ from the current ones by more than the tolerance, in order (the
    /// last value for an address wins).
    public var apply: [LinkValue]
    /// The header to forward with: `ttl − 1` and this instance appended; `nil` when the bundle
    /// arrived with ttl 0.
    public var forward: ViaHeader?
    /// The links to forward to: every link except the one the bundle came from (split horizon).
    public var targets: [OSCSocketAddress]

    /// A plan.
    public init(apply: [LinkValue], forward: ViaHeader?, targets: [OSCSocketAddress]) {
        self.apply = apply
        self.forward = forward
        self.targets = targets
    }
}
