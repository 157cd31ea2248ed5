import OSCTransport
import UncheckedState

/// The one way a callback reaches its ``ServerCore``: every closure the core hands out (to its
/// sockets, its timers, its dispatcher, its receivers, the tasks of its links) captures this
/// reference, never the core itself, weakly or unowned.
///
/// All of a server's state belongs to its event loop (Docs/ARCHITECTURE.md, "Concurrency").
/// This reference is where that rule is checked: in debug builds ``withCore(_:)`` asserts that
/// it runs on the core's loop, as swift-nio's `NIOLoopBound` does for the values it wraps, so a
/// callback that strays onto another thread traps in the tests instead of racing.
///
/// It holds the core without reference counting and without a weak reference (an
/// `UncheckedReference`, which checks in debug builds that the core is alive). A weak reference
/// gives the core a side table, after which every retain and release of it takes the runtime's
/// slow path; the callbacks of the hot path (a datagram, a message, a method) each loaded it
/// strongly (`[weak self]`, `[unowned self]`), several times a set. The core calls
/// ``invalidate()`` on its loop when it stops (a `KnobLinkServer` always stops before it is
/// freed), and every callback runs on that loop, so no callback can reach a freed core.
///
/// The parts of the core (its ``WaveStream``, its ``LinkRuntime``) are not callbacks: the core
/// holds them for its whole life, and they keep an `unowned` reference back to it.
final class CoreReference: @unchecked Sendable {
    /// The loop that owns the core, and so every call through this reference.
    let loop: OSCEventLoop
    private let core: UncheckedReference<ServerCore>
    /// Owned by the loop.
    private var isAlive = true

    init(_ core: ServerCore) {
        self.core = UncheckedReference(core)
        loop = core.loop
    }

    /// Stops every later call; on the loop, when the core stops.
    func invalidate() {
        assertOnLoop()
        isAlive = false
    }

    /// Runs `body` with the core, unless it stopped. Call it on the core's loop.
    @inline(__always)
    func withCore(_ body: (ServerCore) -> Void) {
        assertOnLoop()
        guard isAlive else { return }
        core.withObject(body)
    }

    /// Runs `body` on the loop, later, with the core unless it stopped by then: how work from
    /// another thread (a finished task, a decoded file) reaches the core.
    func execute(_ body: @escaping @Sendable (ServerCore) -> Void) {
        loop.execute { [self] in withCore(body) }
    }

    /// Traps in debug builds when called off the loop (free in release builds).
    @inline(__always)
    func assertOnLoop() {
        #if DEBUG
            precondition(loop.inEventLoop, "a ServerCore was reached off its event loop")
        #endif
    }
}
