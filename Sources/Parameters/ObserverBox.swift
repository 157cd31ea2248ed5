import Synchronization

/// One registered observer. A class so that snapshots share it and removal can switch it off
/// for deliveries already past the lock.
final class ObserverBox: Sendable {
    let token: ParameterObserverToken
    /// The dense parameter indexes the observer covers.
    let range: Range<Int>
    let callback: @Sendable (ParameterChange) -> Void
    let active = Atomic<Bool>(true)

    init(token: ParameterObserverToken, range: Range<Int>, callback: @escaping @Sendable (ParameterChange) -> Void) {
        self.token = token
        self.range = range
        self.callback = callback
    }
}
