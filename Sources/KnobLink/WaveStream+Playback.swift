import Dispatch
import OSCCore

extension WaveStream {
    // MARK: Progress (scrubbing), with the echo rules of section 4

    /// `/wave/progress f p` scrubs; `/wave/progress` alone asks for the playhead.
    func progressMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        let peer = request.peer
        guard message.argumentCount > 0 else {
            return core.reply(Self.progressMessage(playback.progress(at: ServerCore.now())), to: peer)
        }
        guard let value = message.double(at: 0), !value.isNaN else {
            return refuse(message, request, "expected f progress from 0 to 1")
        }
        scrub(to: value, by: peer)
    }

    /// Moves the playhead for `peer`: fanned out to every other visualiser (E1), not back to the
    /// peer unless it asked (E2, flag 8), corrected to the peer when clamped (E3), held for
    /// visualisers that touch it (E4) and sent no faster than each one's rate (E5).
    /// `peer` is `nil` for a seek of the embedder (``KnobLinkServer/seekWave(to:)``).
    func scrub(to value: Double, by peer: ServerPeer?) {
        let now = ServerCore.now()
        let before = playback.progress(at: now)
        let applied = playback.seek(to: value, at: now)
        statistics.scrubs += 1
        if let peer, abs(applied - value) > Self.tolerance {
            core.reply(Self.progressMessage(applied), to: peer)
        }
        let changed = playback.isPlaying || abs(applied - before) > Self.tolerance
        for subscriber in subscribers {
            if subscriber.id == peer?.id {
                if subscriber.wantsOwnEcho {
                    subscriber.progressPending = true
                } else {
                    // The peer has the value it sent (or its correction), and gets no progress
                    // during the guard window, so that a dragged scrubber does not jump back.
                    subscriber.lastSentProgress = applied
                    subscriber.guardUntil = now + core.guardSeconds
                }
                continue
            }
            guard changed else { continue }
            if subscriber.touching {
                subscriber.touchChanged = true
            } else {
                subscriber.progressPending = true
            }
        }
        update()
    }

    /// `/wave/progress/touch i 1|0` (alias `/wave/progress/z`): a drag of the playhead begins or ends.
    func touchMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        let peer = request.peer
        guard let flag = message.double(at: 0), !flag.isNaN else { return refuse(message, request, "expected 1 or 0") }
        guard let subscriber = subscriber(peer.id) else { return }
        if flag != 0 {
            subscriber.touching = true
        } else if subscriber.touching {
            subscriber.touching = false
            if subscriber.touchChanged {
                // E4 and rule 9.6: the playhead once, if it moved while held.
                subscriber.touchChanged = false
                subscriber.progressPending = true
                subscriber.progressUrgent = true
            }
            update()
        }
    }

    // MARK: Transport

    /// `/wave/play` and `/wave/pause`; a zero argument (a button's release) does nothing.
    func transportMessage(_ message: OSCMessageView, _ request: ServerRequest, play: Bool) {
        let peer = request.peer
        if message.argumentCount > 0 {
            guard let flag = message.double(at: 0), !flag.isNaN else {
                return refuse(message, request, "expected 1 or 0")
            }
            guard flag != 0 else { return }
        }
        setPlaying(play, by: peer)
    }

    /// `/wave/playing i 1|0` sets the transport; `/wave/playing` alone asks for it.
    func playingMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        let peer = request.peer
        guard message.argumentCount > 0 else { return core.reply(playingMessage(), to: peer) }
        guard let flag = message.double(at: 0), !flag.isNaN else { return refuse(message, request, "expected 1 or 0") }
        setPlaying(flag != 0, by: peer)
    }

    /// Plays or pauses. A change goes to every visualiser, the requester included (a transport
    /// button cannot predict the state: play at the end starts again from 0); a requester that is
    /// not a visualiser, or that asked for the state it already had, gets the state as a reply.
    func setPlaying(_ play: Bool, by peer: ServerPeer?) {
        let now = ServerCore.now()
        let changed = play ? playback.play(at: now) : playback.pause(at: now)
        if changed {
            transportChanged(now: now)
        }
        if let peer, !changed || subscriber(peer.id) == nil {
            core.reply(playingMessage(), to: peer)
        }
        update()
    }

    /// Tells every visualiser the new transport state; a stop also sends the final playhead and
    /// a level of 0, so that meters do not freeze at the last peak.
    func transportChanged(now: Double) {
        core.log(
            LogEvent(level: .debug, message: playback.isPlaying ? "wave playback started" : "wave playback stopped"))
        for subscriber in subscribers {
            beginPackets(to: subscriber)
            core.builder.append(playingMessage())
            if !playback.isPlaying { core.builder.append(OSCMessage("/wave/level", [.float32(0)])) }
            core.endPackets()
            if subscriber.touching {
                subscriber.touchChanged = true
            } else {
                subscriber.progressPending = true
            }
        }
    }

    func playingMessage() -> OSCMessage {
        OSCMessage("/wave/playing", [.int32(playback.isPlaying ? 1 : 0)])
    }

    // MARK: Level and info

    /// The peak level 0…1 over the `window` seconds before the playhead; 0 while paused.
    func level(at now: Double, window: Double) -> Float {
        guard playback.isPlaying else { return 0 }
        let seconds = playback.seconds(at: now)
        return min(1, max(0, source.peak(max(0, seconds - window), seconds)))
    }

    /// `/wave/level` alone asks for the level at the playhead.
    func levelMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        let peer = request.peer
        core.reply(
            OSCMessage("/wave/level", [.float32(level(at: ServerCore.now(), window: 1 / Self.defaultHz))]), to: peer)
    }

    /// `/wave/info [s url]`.
    func infoRequest(_ message: OSCMessageView, _ request: ServerRequest) {
        guard let destination = core.replyDestination(message, request) else { return }
        core.send(infoMessage(), to: destination, peer: core.peers[destination.id])
    }

    // MARK: The clock

    /// Sends every progress and level update that is due, and sets the timer for the next one.
    func update() {
        timer?.cancel()
        timer = nil
        timerDeadline = .infinity
        guard !stopped else { return }
        let now = ServerCore.now()
        if playback.stopIfAtEnd(at: now) {
            // The end of the source: the playhead stays at 1 and the transport says it stopped.
            transportChanged(now: now)
        }
        reportChange(now: now)
        var next = playback.endTime
        for subscriber in subscribers where subscriber.statePending {
            let due = subscriber.lastStateTime + Self.minimumStateInterval
            if due <= now { sendState(to: subscriber) } else { next = min(next, due) }
        }
        for subscriber in subscribers {
            if playback.isPlaying {
                if subscriber.touching {
                    subscriber.touchChanged = true
                } else {
                    subscriber.progressPending = true
                }
            }
            guard subscriber.progressPending, !subscriber.touching else { continue }
            let due =
                subscriber.progressUrgent
                ? now : max(subscriber.lastProgressTime + subscriber.interval, subscriber.guardUntil)
            guard due <= now else {
                next = min(next, due)
                continue
            }
            send(to: subscriber, now: now)
            if playback.isPlaying { next = min(next, now + subscriber.interval) }
        }
        if next.isFinite { schedule(at: next) }
    }

    /// The playhead (unless the visualiser already has it: E3) and, while playing, the level, in
    /// one packet.
    private func send(to subscriber: WaveSubscriber, now: Double) {
        let progress = playback.progress(at: now)
        let known = subscriber.lastSentProgress
        let sendProgress = subscriber.progressUrgent || known.isNaN || abs(progress - known) > Self.tolerance
        subscriber.progressPending = false
        subscriber.progressUrgent = false
        guard sendProgress || playback.isPlaying else { return }
        beginPackets(to: subscriber)
        if sendProgress { core.builder.append(Self.progressMessage(progress)) }
        if playback.isPlaying {
            core.builder.append(OSCMessage("/wave/level", [.float32(level(at: now, window: subscriber.interval))]))
        }
        core.endPackets()
        subscriber.lastSentProgress = progress
        subscriber.lastProgressTime = now
    }

    func schedule(at due: Double) {
        guard due < timerDeadline, !stopped else { return }
        timer?.cancel()
        timerDeadline = due
        let deadline = Deadline.at(uptimeSeconds: due)
        timer = core.loop.schedule(at: deadline) { [reference = core.reference] in
            reference.withCore { $0.wave?.update() }
        }
    }
}
