/// The feedback state of a subscribed peer, in dense arrays indexed by `Parameter.index`
/// (so that a change costs no hashing and no allocation).
final class SubscriberState {
    /// The forms a parameter is sent in (flag bits; 0 = not subscribed to it).
    var forms: [UInt8]
    /// Seconds between two sends of a parameter.
    var interval: [Double]
    /// When the parameter was last sent (monotonic seconds).
    var lastSent: [Double]
    /// The value last sent (NaN before the first).
    var lastSentValue: [Float]
    /// Until when feedback is held after this peer set the parameter (E4 guard window).
    var guardUntil: [Double]
    /// Whether this peer holds the parameter's touch.
    var touching: [Bool]
    /// Whether the value changed while the touch was held.
    var touchChanged: [Bool]
    /// 0: nothing waiting; 1: a value waits; 2: a value waits that skips the guard (flag-8 echo);
    /// 3: a value waits that skips guard and rate (end of a touch).
    var pending: [UInt8]
    /// The indexes with `pending != 0`, in the order they became pending.
    var dirty: [Int32] = []

    init(count: Int) {
        forms = Array(repeating: 0, count: count)
        interval = Array(repeating: 0, count: count)
        lastSent = Array(repeating: -.infinity, count: count)
        lastSentValue = Array(repeating: .nan, count: count)
        guardUntil = Array(repeating: -.infinity, count: count)
        touching = Array(repeating: false, count: count)
        touchChanged = Array(repeating: false, count: count)
        pending = Array(repeating: 0, count: count)
        dirty.reserveCapacity(count)
    }
}
