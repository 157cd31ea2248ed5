import Waveform

extension KnobLinkServer {
    /// The waveform stream's state now (PROTOCOL.md section 5: the source that `/wave/sub`
    /// visualisers see, the configured audio file or the demo signal).
    public var waveState: WaveState? {
        onLoop { core.wave?.state(at: ServerCore.now()) }
    }

    /// The source's bars, 0…1: the peak of each, scaled so that the loudest is 1 (what a
    /// visualiser of `/wave/sub` with `count` bars and flags 0 receives); empty without a stream.
    /// - Parameter count: how many bars, 1 to 65,536.
    public func waveBars(count: Int) -> [Float] {
        let count = min(max(count, 1), WaveStream.maximumBars)
        return onLoop { core.wave?.bars(for: WaveBarKey(count: count, rms: false, normalized: true)) ?? [] }
    }

    /// Plays or pauses, as `/wave/play` and `/wave/pause` from a peer do: every visualiser hears
    /// of it. Returns at once; ``onWaveChange`` reports the change.
    public func setWavePlaying(_ playing: Bool) {
        loop.execute { [core] in core.wave?.setPlaying(playing, by: nil) }
    }

    /// Moves the playhead to `progress` (0…1, clamped), as `/wave/progress f` from a peer does:
    /// every visualiser hears of it, each at its rate. Returns at once.
    public func seekWave(to progress: Double) {
        loop.execute { [core] in core.wave?.scrub(to: progress, by: nil) }
    }

    /// Told of each change of course of the waveform stream (a play, a pause, a seek, the end
    /// of the source, a new source), on the server's loop; keep it short.
    public var onWaveChange: (@Sendable (WaveState) -> Void)? {
        get { core.waveHandler.handler }
        set { core.waveHandler.handler = newValue }
    }
}
