/// The simulated playhead of the wave stream: no audio device, only the source's duration and a
/// monotonic clock (PROTOCOL.md section 5).
///
/// A value type on purpose, so that its arithmetic is tested without a server or a clock: every
/// method takes the current time in monotonic seconds.
struct WavePlayback: Equatable {
    /// The source's length in seconds; 0 for an empty source, which never plays.
    var duration: Double
    /// Whether the playhead moves.
    private(set) var isPlaying = false
    /// The progress at ``anchorTime``.
    private var anchorProgress = 0.0
    /// When ``anchorProgress`` held (monotonic seconds).
    private var anchorTime = 0.0

    init(duration: Double) {
        self.duration = duration.isFinite ? max(duration, 0) : 0
    }

    /// The playhead at `now`, 0…1; while playing it never passes 1.
    func progress(at now: Double) -> Double {
        guard isPlaying, duration > 0 else { return anchorProgress }
        return min(1, anchorProgress + max(0, now - anchorTime) / duration)
    }

    /// The playhead in seconds at `now`.
    func seconds(at now: Double) -> Double {
        progress(at: now) * duration
    }

    /// Starts moving; at the end (or on an empty source) it starts again from 0. Returns whether
    /// the state changed.
    mutating func play(at now: Double) -> Bool {
        guard !isPlaying else { return false }
        guard duration > 0 else { return false }
        if anchorProgress >= 1 { anchorProgress = 0 }
        anchorTime = now
        isPlaying = true
        return true
    }

    /// Stops where the playhead is. Returns whether the state changed.
    mutating func pause(at now: Double) -> Bool {
        guard isPlaying else { return false }
        anchorProgress = progress(at: now)
        anchorTime = now
        isPlaying = false
        return true
    }

    /// Moves the playhead to `progress`, clamped to 0…1, playing on from there if it was playing.
    /// Returns the applied value.
    @discardableResult
    mutating func seek(to progress: Double, at now: Double) -> Double {
        let applied = progress.isNaN ? anchorProgress : min(1, max(0, progress))
        anchorProgress = applied
        anchorTime = now
        return applied
    }

    /// Whether a playing playhead has reached the end at `now`; if so it stops at exactly 1.
    mutating func stopIfAtEnd(at now: Double) -> Bool {
        guard isPlaying, progress(at: now) >= 1 else { return false }
        anchorProgress = 1
        anchorTime = now
        isPlaying = false
        return true
    }

    /// When a playing playhead reaches the end (monotonic seconds); infinity when paused.
    var endTime: Double {
        guard isPlaying, duration > 0 else { return .infinity }
        return anchorTime + (1 - anchorProgress) * duration
    }
}
