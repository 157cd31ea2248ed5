import Dispatch
import OSCTransport
import Parameters

/// The local half of a mirror, whatever protocol reads the server: the tree the owner holds,
/// the mirror's observer on it, and the feedback guard that holds a server's values while the
/// user holds a parameter or just sent one.
///
/// It belongs to its session's loop. The session gives it the server's values
/// (``apply(_:_:)``) and asks it what a local change means (``outgoing(for:)``); the binding
/// never sends anything itself. Everything is touched only on the loop, hence the unchecked
/// `Sendable`.
final class MirrorBinding: @unchecked Sendable {
    /// What a local change asks the session to send.
    enum Outgoing {
        /// The parameter at this index has a new value, in its own units.
        case value(Int, ParameterValue)
        /// A gesture on the parameter began (`true`) or ended.
        case touch(Int, Bool)
    }

    private let loop: OSCEventLoop
    private let feedbackGuard: Duration
    private let applied: () -> Void
    private(set) var tree: ParameterTree?
    private var observer: ParameterObserverToken?
    private var touched: Set<Int> = []
    private var heldUntil: [Int: DispatchTime] = [:]
    private var pending: [Int: ParameterValue] = [:]

    /// - Parameters:
    ///   - loop: the session's loop, where the observer's changes are handed on.
    ///   - feedbackGuard: how long a server's values wait after a send or a release.
    ///   - applied: told of each server value set on the tree (for the statistics).
    ///   - onChange: gets the local changes, on the loop.
    init(
        loop: OSCEventLoop, feedbackGuard: Duration, applied: @escaping () -> Void,
        onChange: @escaping (MirrorBinding, ParameterChange) -> Void
    ) {
        self.loop = loop
        self.feedbackGuard = feedbackGuard
        self.applied = applied
        self.onChange = onChange
    }

    private let onChange: (MirrorBinding, ParameterChange) -> Void

    /// Makes `built` the mirrored tree (observing it) and forgets every hold.
    /// - Returns: whether it replaced another tree.
    @discardableResult
    func install(_ built: ParameterTree) -> Bool {
        defer {
            touched = []
            heldUntil = [:]
            pending = [:]
        }
        guard built !== tree else { return false }
        stopObserving()
        let replaced = tree != nil
        tree = built
        let loop = self.loop
        observer = built.token { [weak self] change in
            loop.execute { [weak self] in
                guard let self else { return }
                onChange(self, change)
            }
        }
        return replaced
    }

    /// Stops hearing the tree's changes (the session closes).
    func stopObserving() {
        if let observer, let tree { tree.removeParameterObserver(observer) }
        observer = nil
    }

    /// Forgets the gestures in progress (the server is lost: no release will come for them).
    func forgetTouches() {
        touched = []
    }

    /// Applies a server value, or holds it while the user's gesture or the guard after a send
    /// holds the parameter; the latest held value is applied when the hold ends.
    func apply(_ index: Int, _ value: ParameterValue) {
        let now = DispatchTime.now()
        if touched.contains(index) || heldUntil[index].map({ $0 > now }) == true {
            pending[index] = value
            return
        }
        applyNow(index, value)
    }

    /// Sets the local value with the mirror's own token, so that its observer does not hear it
    /// and nothing is sent back (E6).
    func applyNow(_ index: Int, _ value: ParameterValue) {
        guard let tree, let observer, index < tree.allParameters.count else { return }
        tree.allParameters[index].setValue(value, originator: observer)
        applied()
    }

    /// What a change made to the tree by anyone but the mirror asks to send, with the holds it
    /// starts: `nil` for a change of a tree replaced since it was queued.
    func outgoing(for change: ParameterChange) -> Outgoing? {
        guard let tree, change.parameter.index < tree.allParameters.count,
            change.parameter === tree.allParameters[change.parameter.index]
        else { return nil }
        let index = change.parameter.index
        switch change.eventType {
        case .value:
            hold(index)
            return .value(index, change.value)
        case .touch:
            touched.insert(index)
            return .touch(index, true)
        case .release:
            touched.remove(index)
            hold(index)
            return .touch(index, false)
        }
    }

    private func hold(_ index: Int) {
        let until = DispatchTime.now() + .nanoseconds(Int(RemoteSession.seconds(feedbackGuard) * 1e9))
        heldUntil[index] = until
        loop.schedule(at: until) { [weak self] in self?.releaseHeld(index) }
    }

    private func releaseHeld(_ index: Int) {
        guard !touched.contains(index), let until = heldUntil[index] else { return }
        guard until <= .now() else {
            loop.schedule(at: until) { [weak self] in self?.releaseHeld(index) }
            return
        }
        heldUntil[index] = nil
        if let value = pending.removeValue(forKey: index) { applyNow(index, value) }
    }
}
