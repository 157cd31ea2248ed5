/// The handle through which a running effect sends actions back to its store.
///
/// It may be called from any thread. Once its effect has been cancelled, what it sends is
/// dropped.
public struct Send<Action: Sendable>: Sendable {
    private let sendBody: @Sendable (Action) -> Void
    private let debounceBody: @Sendable (Action, Duration) -> Void

    package init(
        send: @escaping @Sendable (Action) -> Void,
        debounce: @escaping @Sendable (Action, Duration) -> Void
    ) {
        self.sendBody = send
        self.debounceBody = debounce
    }

    /// Sends `action` now.
    public func callAsFunction(_ action: Action) {
        sendBody(action)
    }

    /// Sends `action` once `interval` has passed on the store's clock without another debounced
    /// send from the same effect; each call replaces the pending one, so only the last action of
    /// a burst arrives.
    public func debounced(_ action: Action, for interval: Duration) {
        debounceBody(action, interval)
    }

    /// A handle that transforms actions before sending them through this one.
    public func map<Child: Sendable>(_ transform: @escaping @Sendable (Child) -> Action) -> Send<Child> {
        Send<Child>(
            send: { sendBody(transform($0)) },
            debounce: { debounceBody(transform($0), $1) })
    }
}
