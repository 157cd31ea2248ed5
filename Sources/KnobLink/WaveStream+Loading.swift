import Dispatch
import OSCCore
import Waveform

extension WaveStream {
    /// `/wave/load s path`: a file below the media directory, decoded off the loop and then
    /// swapped in; anything else is refused with `/sys/error` and the source stays.
    func loadMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        let peer = request.peer
        guard let requested = message.string(at: 0) else { return refuse(message, request, "expected s path") }
        let resolved: Result<String, WavePathError> = media.map { $0.resolve(requested) } ?? .failure(.noMediaDirectory)
        let path: String
        switch resolved {
        case .success(let found): path = found
        case .failure(let error):
            statistics.loadsRefused += 1
            core.log(LogEvent(level: .warning, message: "refused /wave/load from \(peer.description): \(error)"))
            return core.sendError(about: request, address: message.address, reason: error.description)
        }
        // A file that failed to decode is not decoded again until it changes.
        let version = WaveFileVersion(path: path)
        if let media, let version, let reason = media.failure(of: path, version: version) {
            statistics.loadsRefused += 1
            return core.sendError(
                about: request, address: message.address, reason: reason + " (unchanged since it last failed)")
        }
        guard !loading else {
            statistics.loadsRefused += 1
            return core.sendError(
                about: request, address: message.address,
                reason: "another file is being loaded; try again when it is done")
        }
        loading = true
        let name = requested.split(separator: "/").last.map(String.init) ?? requested
        let reference = core.reference
        // Decoding can take seconds: never on the loop, which keeps serving meanwhile. The result
        // comes back through the core's reference, so one that arrives after `stop()` is dropped.
        DispatchQueue.global(qos: .utility).async {
            let result = Result { () throws(AudioDecodingError) in try WaveSource(file: path, name: name) }
            reference.execute { core in
                guard let stream = core.wave else { return }
                if case .failure(let error) = result, let version {
                    stream.media?.noteFailure(of: path, version: version, reason: error.description)
                }
                stream.finishLoad(result, requestedBy: peer, path: requested)
            }
        }
    }

    private func finishLoad(
        _ result: Result<WaveSource, AudioDecodingError>, requestedBy peer: ServerPeer, path: String
    ) {
        loading = false
        // Checked before anything touches the core, which may be gone once the stream stopped.
        guard !stopped else { return }
        switch result {
        case .success(let loaded):
            statistics.loads += 1
            core.log(LogEvent(level: .info, message: "wave source is now '\(path)'"))
            replaceSource(with: loaded)
            if subscriber(peer.id) == nil { core.reply(infoMessage(), to: peer) }
        case .failure(let error):
            statistics.loadErrors += 1
            core.log(LogEvent(level: .warning, message: "/wave/load from \(peer.description) failed: \(error)"))
            core.sendError(to: peer, address: "/wave/load", reason: error.description)
        }
    }

    /// Swaps the source in: the playhead goes back to 0, paused, and every visualiser gets the
    /// new info, overview, transport state and playhead.
    func replaceSource(with newSource: WaveSource) {
        let wasPlaying = playback.isPlaying
        source = newSource
        sourceCount += 1
        barCache.removeAll()
        playback = WavePlayback(duration: newSource.durationSeconds)
        for subscriber in subscribers {
            subscriber.touchChanged = false
            sendState(to: subscriber)
            if wasPlaying {
                beginPackets(to: subscriber)
                core.builder.append(OSCMessage("/wave/level", [.float32(0)]))
                core.endPackets()
            }
        }
        update()
    }
}
