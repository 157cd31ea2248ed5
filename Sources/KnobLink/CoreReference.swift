/// How the socket, decoder and dispatch callbacks reach their `ServerCore`: without reference
/// counting, and without a weak reference.
///
/// A weak reference gives the core a side table, after which every retain and release of it takes
/// the runtime's slow path; the callbacks of the hot path (a datagram, a message, a method) each
/// loaded it strongly (`[weak self]`, `[unowned self]`), several times a set. This reference is
/// held strongly by the callbacks and lets go of the core when it stops: the core calls
/// ``invalidate()`` on its loop when it stops and when it is freed, and every callback runs on
/// that loop, so no callback can reach a freed core.
final class CoreReference: @unchecked Sendable {
    private let core: Unmanaged<ServerCore>
    /// Owned by the loop.
    private var isAlive = true

    init(_ core: ServerCore) {
        self.core = .passUnretained(core)
    }

    func invalidate() {
        isAlive = false
    }

    /// Runs `body` with the core, unless it stopped.
    @inline(__always)
    func withCore(_ body: (ServerCore) -> Void) {
        guard isAlive else { return }
        core._withUnsafeGuaranteedRef(body)
    }
}
