import Testing

@testable import KnobLink

/// The simulated playhead: real time over the source's duration, on an explicit clock.
@Suite struct WavePlaybackTests {
    @Test func progressAdvancesWithTheClockWhilePlaying() {
        var playback = WavePlayback(duration: 10)
        let changed1 = playback.play(at: 100)
        #expect(changed1)
        #expect(playback.progress(at: 100) == 0)
        #expect(abs(playback.progress(at: 102.5) - 0.25) < 1e-9)
        #expect(abs(playback.seconds(at: 105) - 5) < 1e-9)
        #expect(playback.endTime == 110)
    }

    @Test func pauseHoldsThePlayheadAndPlayResumesFromIt() {
        var playback = WavePlayback(duration: 10)
        _ = playback.play(at: 0)
        let changed2 = playback.pause(at: 4)
        #expect(changed2)
        let changed3 = playback.pause(at: 5)
        #expect(!changed3)
        #expect(abs(playback.progress(at: 9) - 0.4) < 1e-9)
        #expect(playback.endTime == .infinity)
        let changed4 = playback.play(at: 20)
        #expect(changed4)
        let changed5 = playback.play(at: 21)
        #expect(!changed5)
        #expect(abs(playback.progress(at: 21) - 0.5) < 1e-9)
    }

    @Test(arguments: [(-1.0, 0.0), (0.3, 0.3), (1.7, 1.0), (-Double.infinity, 0.0), (Double.infinity, 1.0)])
    func seekClamps(value: Double, expected: Double) {
        var playback = WavePlayback(duration: 10)
        let applied = playback.seek(to: value, at: 0)
        #expect(applied == expected)
        #expect(playback.progress(at: 3) == expected)
    }

    @Test func seekWhilePlayingPlaysOnFromThere() {
        var playback = WavePlayback(duration: 10)
        _ = playback.play(at: 0)
        playback.seek(to: 0.8, at: 5)
        #expect(playback.isPlaying)
        #expect(abs(playback.progress(at: 6) - 0.9) < 1e-9)
    }

    @Test func theEndStopsAtOneAndPlayStartsAgainFromZero() {
        var playback = WavePlayback(duration: 2)
        _ = playback.play(at: 0)
        let changed6 = playback.stopIfAtEnd(at: 1.9)
        #expect(!changed6)
        #expect(playback.progress(at: 5) == 1)
        let changed7 = playback.stopIfAtEnd(at: 5)
        #expect(changed7)
        #expect(!playback.isPlaying)
        #expect(playback.progress(at: 6) == 1)
        let changed8 = playback.play(at: 7)
        #expect(changed8)
        #expect(playback.progress(at: 7) == 0)
    }

    @Test func anEmptySourceNeverPlays() {
        var playback = WavePlayback(duration: 0)
        let changed9 = playback.play(at: 0)
        #expect(!changed9)
        #expect(!playback.isPlaying)
        #expect(WavePlayback(duration: .nan).duration == 0)
    }
}
