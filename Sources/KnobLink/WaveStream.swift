import Dispatch
import OSCCore
import OSCTransport

/// The waveform stream of PROTOCOL.md section 5: one audio source, its visualisers, and the
/// simulated playhead. Owned by the server's event loop like ``ServerCore``, whose sending,
/// error and peer machinery it uses; only decoding a file leaves the loop.
final class WaveStream: @unchecked Sendable {
    static let defaultBars = 64
    static let maximumBars = 65536
    static let defaultHz = 30.0
    static let maximumHz = 120.0
    /// The slowest progress rate: one update an hour, the longest interval a parameter
    /// subscription takes too (a rate closer to 0 made the next deadline overflow, issue 9).
    static let minimumHz = 1.0 / 3600
    /// Bar sets kept for reuse; more distinct (count, form) pairs than this empty the cache.
    static let maximumCachedBarSets = 16
    /// Below this, two progress values are the same (the tolerance of corrections, rule 9.5).
    static let tolerance = 1e-6
    /// The least time between two state bursts to one visualiser: an overview can be 256 KiB, so
    /// a peer that subscribes again and again (or subscribes a third party's url) gets one burst
    /// a quarter second, with the latest settings, rather than one per message.
    static let minimumStateInterval = 0.25

    unowned let core: ServerCore
    let media: WaveMediaDirectory?
    var source: WaveSource
    var playback: WavePlayback
    var subscribers: [WaveSubscriber] = []
    var barCache: [WaveBarKey: [Float]] = [:]
    var nextSeq: Int32 = 0
    /// Whether a file is being decoded (one at a time, so that peers cannot pile up threads).
    var loading = false
    var timer: DispatchWorkItem?
    var timerDeadline = Double.infinity
    var statistics = WaveStatistics()
    /// Counts the sources, for ``WaveState/source``.
    var sourceCount = 0
    /// The playhead and source last reported to ``ServerCore/waveHandler``.
    private var reported: (playback: WavePlayback, source: Int)?

    init(core: ServerCore, source: WaveSource) {
        self.core = core
        media = core.configuration.mediaDirectory.map(WaveMediaDirectory.init(path:))
        self.source = source
        playback = WavePlayback(duration: source.durationSeconds)
    }

    /// Set by ``stop()``: a decode that finishes later may find the server, and its core, gone.
    var stopped = false

    func stop() {
        stopped = true
        timer?.cancel()
        timer = nil
        timerDeadline = .infinity
    }

    /// The state at `now`.
    func state(at now: Double) -> WaveState {
        WaveState(
            name: source.name, duration: source.durationSeconds, source: sourceCount,
            progress: playback.progress(at: now), isPlaying: playback.isPlaying)
    }

    /// Tells the embedder's wave handler of a change of course since the last report: a play,
    /// pause, seek or end changes the playback's anchor, a load the source.
    func reportChange(now: Double) {
        if let reported, reported.playback == playback, reported.source == sourceCount { return }
        reported = (playback, sourceCount)
        core.waveHandler(state(at: now))
    }

    /// The counters, and the current number of visualisers.
    var statisticsEntries: [(name: String, value: Int)] {
        [("waveSubscribers", subscribers.count)] + statistics.entries
    }

    // MARK: Subscriptions

    func subscribeMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        let peer = request.peer
        guard let url = message.string(at: 0) else {
            return refuse(message, request, "expected s url [i bars] [f hz] [i flags]")
        }
        var bars = Self.defaultBars
        if message.argumentCount > 1 {
            guard let given = message.int32(at: 1), given >= 1, Int(given) <= Self.maximumBars else {
                return refuse(message, request, "bars must be a whole number from 1 to \(Self.maximumBars)")
            }
            bars = Int(given)
        }
        var hz = Self.defaultHz
        if message.argumentCount > 2 {
            guard let given = message.double(at: 2), given.isFinite, given > 0 else {
                return refuse(message, request, "hz must be a number above 0 (at most \(Int(Self.maximumHz)))")
            }
            hz = min(max(given, Self.minimumHz), Self.maximumHz)
        }
        var flags: UInt8 = 0
        if message.argumentCount > 3 {
            guard let given = message.int32(at: 3) else { return refuse(message, request, "flags must be an integer") }
            flags = UInt8(truncatingIfNeeded: given) & WaveSubscriber.Flag.all
        }
        guard let destination = destination(url, message, request) else { return }
        removeClosedConnections()
        let known = self.subscriber(destination.id)
        var sponsor: [UInt8]?
        if destination.id != peer.id {
            sponsor = core.hostAdmittingURL(from: peer, sponsor: known?.sponsorHost, message)
            guard sponsor != nil else { return }
        }
        let subscriber: WaveSubscriber
        if let known {
            // Subscribing again replaces the settings and sends everything again, as rule 9.8 does.
            known.bars = bars
            known.interval = 1 / hz
            known.flags = flags
            subscriber = known
        } else {
            guard subscribers.count < core.configuration.maxPeers else {
                statistics.subscriberCap += 1
                return core.sendError(
                    about: request, address: message.address,
                    reason: "too many wave subscribers (at most \(core.configuration.maxPeers))")
            }
            subscriber = WaveSubscriber(destination: destination, bars: bars, interval: 1 / hz, flags: flags)
            subscribers.append(subscriber)
            core.log(LogEvent(level: .info, message: "peer \(destination.description) subscribed to the wave stream"))
        }
        subscriber.sponsorHost = sponsor
        sendState(to: subscriber)
    }

    /// How many visualiser urls other than their own the peers of `host` have subscribed.
    func urlsHeld(by host: [UInt8]) -> Int {
        subscribers.reduce(0) { $0 + ($1.sponsorHost == host ? 1 : 0) }
    }

    func unsubscribeMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        guard let url = message.string(at: 0) else { return refuse(message, request, "expected s url") }
        guard let destination = destination(url, message, request) else { return }
        let before = subscribers.count
        subscribers.removeAll { $0.id == destination.id }
        if subscribers.count != before {
            core.log(
                LogEvent(level: .info, message: "peer \(destination.description) unsubscribed from the wave stream"))
        }
    }

    func subscriber(_ id: PeerID) -> WaveSubscriber? {
        subscribers.first { $0.id == id }
    }

    /// Drops visualisers whose TCP connection closed.
    func removeClosedConnections() {
        subscribers.removeAll { $0.destination.isClosed }
    }

    /// A peer the server found gone (its connection closed, or its UDP port unreachable time after
    /// time): its wave subscription ends with it.
    func peerRemoved(_ peer: ServerPeer) {
        guard let subscriber = subscriber(peer.id) else { return }
        subscribers.removeAll { $0 === subscriber }
        statistics.deadSubscribers += 1
        core.log(LogEvent(level: .info, message: "wave subscriber \(subscriber.destination.description) is gone"))
    }

    /// Starts a run of packets to `subscriber`. Its peer entity is looked up (or made) each time,
    /// so that failed deliveries are counted against the entry the server's dead-peer detection
    /// watches, even after the table forgot an idle peer.
    func beginPackets(to subscriber: WaveSubscriber) {
        core.beginPackets(to: subscriber.destination, peer: core.peer(for: subscriber.destination))
    }

    // MARK: What a visualiser gets

    /// Everything a new (or re-subscribed) visualiser needs: info, the overview, the transport
    /// state and the playhead; held until ``minimumStateInterval`` has passed since the last one.
    /// Timed by the packet being handled, so that every message of one packet (a bundle of
    /// subscriptions) happens at one instant however long the server takes to handle it.
    func sendState(to subscriber: WaveSubscriber) {
        let now = core.currentSeconds()
        let due = subscriber.lastStateTime + Self.minimumStateInterval
        guard now >= due else {
            subscriber.statePending = true
            schedule(at: due)
            return
        }
        subscriber.statePending = false
        subscriber.lastStateTime = now
        let progress = playback.progress(at: now)
        beginPackets(to: subscriber)
        core.builder.append(infoMessage())
        for message in overview(for: subscriber) { core.builder.append(message) }
        core.builder.append(OSCMessage("/wave/playing", [.int32(playback.isPlaying ? 1 : 0)]))
        core.builder.append(Self.progressMessage(progress))
        core.endPackets()
        subscriber.lastSentProgress = progress
        subscriber.lastProgressTime = now
        subscriber.progressPending = false
        subscriber.progressUrgent = false
    }

    /// The messages of a new overview frame for `subscriber`.
    func overview(for subscriber: WaveSubscriber) -> [OSCMessage] {
        let seq = nextSeq
        nextSeq = nextSeq == Int32.max ? 0 : nextSeq + 1
        statistics.overviews += 1
        return WaveOverview.messages(
            seq: seq, bars: bars(for: subscriber.barKey), floats: subscriber.wantsFloats,
            datagramLimit: subscriber.destination.datagramLimit)
    }

    /// The bars of the current source for `key`, computed once per source.
    func bars(for key: WaveBarKey) -> [Float] {
        if let cached = barCache[key] { return cached }
        let bars = source.bars(key.count, key.reduction, key.normalization)
        if barCache.count >= Self.maximumCachedBarSets { barCache.removeAll() }
        barCache[key] = bars
        return bars
    }

    func infoMessage() -> OSCMessage {
        OSCMessage(
            "/wave/info",
            [
                .string(source.name), .float32(Float(source.durationSeconds)),
                .int32(Int32(clamping: source.sampleRate)), .int32(Int32(clamping: source.channels)),
            ])
    }

    static func progressMessage(_ progress: Double) -> OSCMessage {
        OSCMessage("/wave/progress", [.float32(Float(progress))])
    }

    // MARK: Helpers

    func destination(_ url: String, _ message: OSCMessageView, _ request: ServerRequest) -> PeerDestination? {
        switch core.destination(forURL: url, from: request.peer) {
        case .success(let destination): return destination
        case .failure(let error):
            core.stats.badArguments += 1
            core.sendError(about: request, address: message.address, reason: error.description)
            return nil
        }
    }

    func refuse(_ message: OSCMessageView, _ request: ServerRequest, _ reason: String) {
        core.stats.badArguments += 1
        core.sendError(about: request, address: message.address, reason: reason)
    }
}
