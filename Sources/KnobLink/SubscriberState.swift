/// The feedback state of a subscribed peer, in dense arrays indexed by `Parameter.index`, so that
/// a change costs no hashing and no allocation.
///
/// The arrays are fixed-size buffers held by `let`: a change touches them for every subscriber,
/// and `Array` properties of a class would cost an exclusivity check and a uniqueness check on
/// each write. Owned by the event loop, like the peer.
final class SubscriberState {
    let count: Int
    /// The forms a parameter is sent in (flag bits; 0 = not subscribed to it).
    let forms: UnsafeMutableBufferPointer<UInt8>
    /// Seconds between two sends of a parameter. A `Float`: an interval needs no more than its
    /// 24 bits (1/30 s is off by 1 ns), and this is one of the arrays every peer keeps per parameter.
    let interval: UnsafeMutableBufferPointer<Float>
    /// When the parameter was last sent (monotonic seconds).
    let lastSent: UnsafeMutableBufferPointer<Double>
    /// The value the peer is known to have: last sent, or set by the peer itself (NaN: unknown).
    let lastSentValue: UnsafeMutableBufferPointer<Float>
    /// The arrays only a peer that sets or touches parameters needs (see ``setterBuffers()``); nil
    /// until it first does. Most subscribers only listen: 10 bytes less per parameter for each.
    private let setter: UnsafeMutablePointer<SetterBuffers?>
    /// 0: nothing waiting; 1: a value waits; 2: a value waits that skips the guard (flag-8 echo);
    /// 3: a value waits that skips guard and rate (end of a touch).
    let pending: UnsafeMutableBufferPointer<UInt8>
    /// The indexes with `pending != 0`, in the order they became pending: `dirty[0..<dirtyCount]`.
    let dirty: UnsafeMutableBufferPointer<Int32>
    var dirtyCount = 0
    /// The shortest interval of the peer's subscriptions: its packets of feedback are at least
    /// this far apart, so that changes due within one interval travel together (E5).
    var minimumInterval = 0.0
    /// When the peer may get its next packet of feedback (monotonic seconds).
    var nextFlush = -Double.infinity

    /// Until when feedback is held after this peer set the parameter (E4 guard window); whether
    /// this peer holds the parameter's touch; whether the value changed while the touch was held.
    typealias SetterBuffers = (
        guardUntil: UnsafeMutableBufferPointer<Double>, touching: UnsafeMutableBufferPointer<Bool>,
        touchChanged: UnsafeMutableBufferPointer<Bool>
    )

    init(count: Int) {
        self.count = count
        forms = Self.make(count, 0)
        interval = Self.make(count, Float(0))
        lastSent = Self.make(count, -.infinity)
        lastSentValue = Self.make(count, .nan)
        setter = .allocate(capacity: 1)
        setter.initialize(to: nil)
        pending = Self.make(count, 0)
        dirty = Self.make(count, 0)
    }

    deinit {
        forms.deallocate()
        interval.deallocate()
        lastSent.deallocate()
        lastSentValue.deallocate()
        if let buffers = setter.pointee {
            buffers.guardUntil.deallocate()
            buffers.touching.deallocate()
            buffers.touchChanged.deallocate()
        }
        setter.deallocate()
        pending.deallocate()
        dirty.deallocate()
    }

    /// Whether this peer holds the parameter's touch.
    @inline(__always)
    func isTouching(_ index: Int) -> Bool {
        setter.pointee?.touching[index] ?? false
    }

    /// Until when feedback is held after this peer set the parameter (E4 guard window).
    @inline(__always)
    func guardUntil(_ index: Int) -> Double {
        setter.pointee?.guardUntil[index] ?? -.infinity
    }

    /// The guard times and touch flags, allocated on the peer's first set or touch.
    func setterBuffers() -> SetterBuffers {
        if let buffers = setter.pointee { return buffers }
        let buffers = (
            guardUntil: Self.make(count, -Double.infinity), touching: Self.make(count, false),
            touchChanged: Self.make(count, false)
        )
        setter.pointee = buffers
        return buffers
    }

    /// Takes over `old`'s state of the parameters that a tree reload kept: when each was last
    /// sent and with what value, the values waiting, and the peer's touches and guard windows.
    /// - Parameter previous: for each parameter of the new tree, its index in the old one, or -1.
    func carry(from old: SubscriberState, previous: [Int]) {
        precondition(previous.count == count, "SubscriberState.carry: one old index per parameter")
        let oldSetter = old.setter.pointee
        let newSetter = oldSetter == nil ? nil : setterBuffers()
        for (index, before) in previous.enumerated() where before >= 0 {
            lastSent[index] = old.lastSent[before]
            lastSentValue[index] = old.lastSentValue[before]
            if old.pending[before] != 0 {
                pending[index] = old.pending[before]
                dirty[dirtyCount] = Int32(index)
                dirtyCount += 1
            }
            if let oldSetter, let newSetter {
                newSetter.guardUntil[index] = oldSetter.guardUntil[before]
                newSetter.touching[index] = oldSetter.touching[before]
                newSetter.touchChanged[index] = oldSetter.touchChanged[before]
            }
        }
        minimumInterval = old.minimumInterval
        nextFlush = old.nextFlush
    }

    private static func make<T>(_ count: Int, _ value: T) -> UnsafeMutableBufferPointer<T> {
        let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(count, 1))
        buffer.initialize(repeating: value)
        return buffer
    }
}
