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
    /// Seconds between two sends of a parameter, as an index into `intervals`: a parameter's
    /// interval is one of its subscriptions', so a peer has few distinct ones, and this is one of
    /// the arrays every peer keeps per parameter (a byte, where a `Float` took four).
    let intervalIndex: UncheckedBuffer<UInt8>
    /// The distinct intervals, `intervals[0..<intervalCount]`; `intervals[0]` is 0 (no limit).
    /// A `Float`: an interval needs no more than its 24 bits (1/30 s is off by 1 ns).
    let intervals = UncheckedBuffer<Float>(count: SubscriberState.intervalCapacity, repeating: 0)
    private(set) var intervalCount = 1
    /// More than a peer can have: 16 subscriptions, and every LISTEN at 1/120 s.
    static let intervalCapacity = 32
    /// When the parameter was last sent, in seconds after ``sentEpoch``, rounded up: never earlier
    /// than it was, so the rate is never exceeded. `-infinity`: never. A `Float`, where monotonic
    /// seconds took a `Double`, 4 bytes more of each parameter for each peer: ``lastSent(_:)``.
    private let lastSentOffset: UncheckedBuffer<Float>
    /// The monotonic second that `lastSentOffset` counts from. Moved on once a send is
    /// ``epochSpan`` past it, so that a new offset is below the span, where a `Float`'s step is
    /// 2⁻¹⁶ s (15 µs).
    private(set) var sentEpoch = 0.0
    static let epochSpan = 128.0
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
        intervalIndex = UncheckedBuffer(count: count, repeating: 0)
        lastSentOffset = UncheckedBuffer(count: count, repeating: -.infinity)
        lastSentValue = UncheckedBuffer(count: count, repeating: .nan)
        pending = UncheckedBuffer(count: count, repeating: 0)
        dirty = UncheckedBuffer(count: count, repeating: 0)
    }

    /// When the parameter at `index` was last sent (monotonic seconds; `-infinity`: never), at
    /// most 15 µs later than it was.
    @inline(__always)
    func lastSent(_ index: Int) -> Double {
        sentEpoch + Double(lastSentOffset[index])
    }

    /// Records that the parameter at `index` was sent at `now` (monotonic seconds, not earlier
    /// than any time recorded before).
    @inline(__always)
    func setLastSent(_ index: Int, _ now: Double) {
        if now - sentEpoch >= Self.epochSpan { moveEpoch(to: now) }
        lastSentOffset[index] = Self.roundedUp(now - sentEpoch)
    }

    /// `seconds` as a `Float` not below it.
    @inline(__always)
    private static func roundedUp(_ seconds: Double) -> Float {
        let rounded = Float(seconds)
        return Double(rounded) < seconds ? rounded.nextUp : rounded
    }

    /// Counts every offset from `now` instead: each stays as late as it was, or later by a step.
    @inline(never)
    private func moveEpoch(to now: Double) {
        let shift = now - sentEpoch
        for index in 0..<count where lastSentOffset[index] != -.infinity {
            lastSentOffset[index] = Self.roundedUp(Double(lastSentOffset[index]) - shift)
        }
        sentEpoch = now
    }

    /// Seconds between two sends of the parameter at `index`.
    @inline(__always)
    func interval(_ index: Int) -> Float {
        intervals[Int(intervalIndex[index])]
    }

    /// Forgets every parameter's interval, before they are set again.
    func resetIntervals() {
        intervalIndex.update(repeating: 0)
        intervalCount = 1
    }

    /// Sets the interval of the parameter at `index`.
    ///
    /// Should a peer ever have more distinct intervals than the table holds, the parameter gets
    /// the longest one kept that is not longer than its own: it may then be sent more often than
    /// it asked, never less (its packets stay `minimumInterval` apart).
    func setInterval(_ index: Int, _ interval: Float) {
        var nearest = 0
        for position in 0..<intervalCount {
            let kept = intervals[position]
            if kept == interval {
                intervalIndex[index] = UInt8(position)
                return
            }
            if kept < interval && kept > intervals[nearest] { nearest = position }
        }
        if intervalCount < Self.intervalCapacity {
            intervals[intervalCount] = interval
            intervalIndex[index] = UInt8(intervalCount)
            intervalCount += 1
        } else {
            intervalIndex[index] = UInt8(nearest)
        }
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
        sentEpoch = old.sentEpoch
        for (index, before) in previous.enumerated() where before >= 0 {
            lastSentOffset[index] = old.lastSentOffset[before]
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
