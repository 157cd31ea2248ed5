import UncheckedState

/// The feedback state of a subscribed peer, in dense arrays indexed by `Parameter.index`, so that
/// a change costs no hashing and no allocation.
///
/// The arrays are fixed-size `UncheckedBuffer`s held by `let`: a change touches them for every
/// subscriber, and `Array` properties of a class would cost an exclusivity check and a uniqueness
/// check on each write. Owned by the event loop, like the peer.
final class SubscriberState {
    let count: Int
    /// The forms a parameter is sent in (flag bits; 0 = not subscribed to it).
    let forms: UncheckedBuffer<UInt8>
    /// Seconds between two sends of a parameter. A `Float`: an interval needs no more than its
    /// 24 bits (1/30 s is off by 1 ns), and this is one of the arrays every peer keeps per parameter.
    let interval: UncheckedBuffer<Float>
    /// When the parameter was last sent (monotonic seconds).
    let lastSent: UncheckedBuffer<Double>
    /// The value the peer is known to have: last sent, or set by the peer itself (NaN: unknown).
    let lastSentValue: UncheckedBuffer<Float>
    /// The arrays only a peer that sets or touches parameters needs (see
    /// ``withSetterBuffers(_:)``); empty until it first does. Most subscribers only listen: 10
    /// bytes less per parameter for each.
    private let setter = UncheckedBox(SetterBuffers())
    /// 0: nothing waiting; 1: a value waits; 2: a value waits that skips the guard (flag-8 echo);
    /// 3: a value waits that skips guard and rate (end of a touch).
    let pending: UncheckedBuffer<UInt8>
    /// The indexes with `pending != 0`, in the order they became pending: `dirty[0..<dirtyCount]`.
    let dirty: UncheckedBuffer<Int32>
    var dirtyCount = 0
    /// The shortest interval of the peer's subscriptions: its packets of feedback are at least
    /// this far apart, so that changes due within one interval travel together (E5).
    var minimumInterval = 0.0
    /// When the peer may get its next packet of feedback (monotonic seconds).
    var nextFlush = -Double.infinity

    /// Until when feedback is held after this peer set the parameter (E4 guard window); whether
    /// this peer holds the parameter's touch; whether the value changed while the touch was held.
    ///
    /// Not an optional: the fan-out loop asks every subscriber whether it holds a touch, and an
    /// optional of three buffers is told from `nil` by testing all six of its words, where this
    /// flag is one byte.
    struct SetterBuffers: ~Copyable {
        /// Whether the buffers have an element per parameter; they are empty until then.
        let isAllocated: Bool
        let guardUntil: UncheckedBuffer<Double>
        let touching: UncheckedBuffer<Bool>
        let touchChanged: UncheckedBuffer<Bool>

        /// Empty buffers, for a peer that has not set or touched anything yet.
        init() {
            self.init(count: 0, isAllocated: false)
        }

        /// An element per parameter.
        init(count: Int) {
            self.init(count: count, isAllocated: true)
        }

        private init(count: Int, isAllocated: Bool) {
            self.isAllocated = isAllocated
            guardUntil = UncheckedBuffer(count: count, repeating: -.infinity)
            touching = UncheckedBuffer(count: count, repeating: false)
            touchChanged = UncheckedBuffer(count: count, repeating: false)
        }
    }

    init(count: Int) {
        self.count = count
        forms = UncheckedBuffer(count: count, repeating: 0)
        interval = UncheckedBuffer(count: count, repeating: 0)
        lastSent = UncheckedBuffer(count: count, repeating: -.infinity)
        lastSentValue = UncheckedBuffer(count: count, repeating: .nan)
        pending = UncheckedBuffer(count: count, repeating: 0)
        dirty = UncheckedBuffer(count: count, repeating: 0)
    }

    /// Whether this peer holds the parameter's touch.
    @inline(__always)
    func isTouching(_ index: Int) -> Bool {
        setter.value.isAllocated && setter.value.touching[index]
    }

    /// Until when feedback is held after this peer set the parameter (E4 guard window).
    @inline(__always)
    func guardUntil(_ index: Int) -> Double {
        setter.value.isAllocated ? setter.value.guardUntil[index] : -.infinity
    }

    /// Calls `body` with the guard times and touch flags, allocated on the peer's first set or
    /// touch. `body` may read this state but not replace it.
    func withSetterBuffers<Result>(_ body: (borrowing SetterBuffers) -> Result) -> Result {
        if !setter.value.isAllocated { makeSetterBuffers() }
        return body(setter.value)
    }

    /// Out of line: the fan-out loop reaches ``withSetterBuffers(_:)`` only for a peer that holds
    /// a touch, and so has the buffers already.
    @inline(never)
    private func makeSetterBuffers() {
        setter.value = SetterBuffers(count: count)
    }

    /// Takes over `old`'s state of the parameters that a tree reload kept: when each was last
    /// sent and with what value, the values waiting, and the peer's touches and guard windows.
    /// - Parameter previous: for each parameter of the new tree, its index in the old one, or -1.
    func carry(from old: SubscriberState, previous: [Int]) {
        precondition(previous.count == count, "SubscriberState.carry: one old index per parameter")
        for (index, before) in previous.enumerated() where before >= 0 {
            lastSent[index] = old.lastSent[before]
            lastSentValue[index] = old.lastSentValue[before]
            if old.pending[before] != 0 {
                pending[index] = old.pending[before]
                dirty[dirtyCount] = Int32(index)
                dirtyCount += 1
            }
        }
        minimumInterval = old.minimumInterval
        nextFlush = old.nextFlush
        guard old.setter.value.isAllocated else { return }
        old.withSetterBuffers { oldSetter in
            withSetterBuffers { newSetter in
                for (index, before) in previous.enumerated() where before >= 0 {
                    newSetter.guardUntil[index] = oldSetter.guardUntil[before]
                    newSetter.touching[index] = oldSetter.touching[before]
                    newSetter.touchChanged[index] = oldSetter.touchChanged[before]
                }
            }
        }
    }
}
