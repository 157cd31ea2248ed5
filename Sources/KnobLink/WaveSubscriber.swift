/// A visualiser subscribed with `/wave/sub` (PROTOCOL.md section 5), and the feedback state of
/// its progress. Owned by the server's event loop.
final class WaveSubscriber {
    /// `/wave/sub` flag bits.
    enum Flag {
        /// `/wave/bars/f` rather than blobs.
        static let floats: UInt8 = 1
        /// Bars relative to full scale rather than to the loudest bar.
        static let notNormalized: UInt8 = 2
        /// Bars from the RMS rather than the peak.
        static let rms: UInt8 = 4
        /// The peer's own progress changes come back to it (as flag 8 of `/sys/subscribe`).
        static let echoToSelf: UInt8 = 8
        static let all: UInt8 = 15
    }

    let destination: PeerDestination
    let id: PeerID
    var bars: Int
    /// Seconds between two progress updates.
    var interval: Double
    /// The host whose request subscribed this url, when it was not the visualiser itself.
    var sponsorHost: [UInt8]?
    var flags: UInt8

    /// When the last state burst (info, overview, transport, playhead) went out (monotonic seconds).
    var lastStateTime = -Double.infinity
    /// Whether a state burst waits for ``WaveStream/minimumStateInterval`` to pass.
    var statePending = false
    /// The progress the visualiser is known to have (NaN: unknown).
    var lastSentProgress = Double.nan
    /// When progress was last sent (monotonic seconds).
    var lastProgressTime = -Double.infinity
    /// Whether a progress value waits to be sent.
    var progressPending = false
    /// A waiting value skips the rate and the guard window (the end of a touch, a flag-8 echo).
    var progressUrgent = false
    /// Until when progress feedback is held after this peer scrubbed (E4 guard window).
    var guardUntil = -Double.infinity
    /// Whether this peer holds `/wave/progress/touch 1`.
    var touching = false
    /// Whether progress changed while the touch was held.
    var touchChanged = false

    init(destination: PeerDestination, bars: Int, interval: Double, flags: UInt8) {
        self.destination = destination
        id = destination.id
        self.bars = bars
        self.interval = interval
        self.flags = flags
    }

    var wantsFloats: Bool { flags & Flag.floats != 0 }
    var wantsOwnEcho: Bool { flags & Flag.echoToSelf != 0 }

    /// The bar count and form that decide the bars' values.
    var barKey: WaveBarKey {
        WaveBarKey(
            count: bars, rms: flags & Flag.rms != 0, normalized: flags & Flag.notNormalized == 0)
    }
}
