import OSCCore
import Parameters

extension ServerCore {
    /// Two values closer than this (normalised) are the same: no correction (E3, rule 9.10).
    static let tolerance = 1e-6

    /// Registers every parameter's facets: `ADDR`, `ADDR/raw`, `ADDR/str`, `ADDR/touch`… One
    /// shared handler per facet, told the parameter by the registration's tag: a handler per
    /// address was an object per registration, 11,000 of them for 1,000 parameters (0.6 MiB).
    func registerParameterMethods() throws {
        let facets = Self.parameterFacets(reference)
        var bytes = 0
        for index in parameters.indices {
            bytes += facets.count * addresses[index].value.utf8.count
        }
        bytes += parameters.count * facets.reduce(0) { $0 + $1.suffix.utf8.count }
        dispatcher.reserveCapacity(registrations: parameters.count * facets.count, bytes: bytes)
        for index in parameters.indices {
            let address = addresses[index].value
            for facet in facets {
                try dispatcher.register(address + facet.suffix, handler: facet.handler, tag: index)
            }
        }
    }

    /// The facets of a parameter: the suffix of each one's address, and its handler.
    private static func parameterFacets(
        _ core: CoreReference
    ) -> [(suffix: String, handler: OSCDispatcher.SharedHandler<ServerRequest>)] {
        func facet(
            _ suffix: String, _ body: @escaping (ServerCore, Int, OSCMessageView, ServerRequest) -> Void
        ) -> (suffix: String, handler: OSCDispatcher.SharedHandler<ServerRequest>) {
            let handler = OSCDispatcher.SharedHandler(context: ServerRequest.self) { message, request, index in
                core.withCore { body($0, index, message, request) }
            }
            return (suffix, handler)
        }
        return [
            facet("") { $0.valueMessage($1, $2, $3) },
            facet("/raw") { $0.rawMessage($1, $2, $3) },
            facet("/str") { $0.stringMessage($1, $2, $3) },
            facet("/touch") { $0.touchMessage($1, $2, $3) },
            facet("/z") { $0.touchMessage($1, $2, $3) },
            facet("/reset") { $0.resetMessage($1, $2, $3) },
            facet("/get") { $0.getMessage($1, $2, $3, facet: .normalized) },
            // Every facet reads as `FACET/get [s url]`, so that `knoblink get` (and any asker
            // that listens on a port of its own) can read them all in one way.
            facet("/raw/get") { $0.getMessage($1, $2, $3, facet: .raw) },
            facet("/str/get") { $0.getMessage($1, $2, $3, facet: .text) },
            facet("/info") { $0.infoMessage($1, $2, $3) },
            facet("/info/get") { $0.infoMessage($1, $2, $3) },
        ]
    }

    // MARK: Facets

    private func valueMessage(_ index: Int, _ message: OSCMessageView, _ request: ServerRequest) {
        let peer = parameterPeer(request)
        let parameter = parameters[index]
        if message.argumentCount == 0 {
            return reply(OSCMessage(addresses[index].value, [.float32(Float(parameter.normalizedValue))]), to: peer)
        }
        guard let norm = message.double(at: 0) else { return badArguments(message, request, "expected a number") }
        guard checkWrite(index, norm, message, request) else { return }
        let result = parameter.setNormalizedValue(norm, originator: originator)
        guard let applied = result.appliedValue else { return }
        didSet(index, result, by: peer)
        let appliedNorm = parameter.normalize(applied)
        if abs(appliedNorm - norm) > Self.tolerance || norm.isInfinite {
            builderReply(to: peer) { builder.appendFloat(address: addresses[index].valueBytes, Float(appliedNorm)) }
        }
    }

    private func rawMessage(_ index: Int, _ message: OSCMessageView, _ request: ServerRequest) {
        let peer = parameterPeer(request)
        let parameter = parameters[index]
        if message.argumentCount == 0 {
            return builderReply(to: peer) { builder.appendFloat(address: addresses[index].rawBytes, parameter.value) }
        }
        guard let value = message.double(at: 0) else { return badArguments(message, request, "expected a number") }
        guard checkWrite(index, value, message, request) else { return }
        let result = parameter.setValue(ParameterValue(value), originator: originator)
        guard let applied = result.appliedValue else { return }
        didSet(index, result, by: peer)
        if differs(index, applied, value) {
            builderReply(to: peer) { builder.appendFloat(address: addresses[index].rawBytes, applied) }
        }
    }

    private func stringMessage(_ index: Int, _ message: OSCMessageView, _ request: ServerRequest) {
        let peer = parameterPeer(request)
        let parameter = parameters[index]
        let address = addresses[index].value + "/str"
        if message.argumentCount == 0 {
            return reply(OSCMessage(address, [.string(parameter.asciiDisplayString())]), to: peer)
        }
        guard let text = message.string(at: 0) else { return badArguments(message, request, "expected a string") }
        let parsed: ParameterValue
        do {
            parsed = try parameter.value(fromString: text)
        } catch {
            stats.badArguments += 1
            return sendError(about: request, address: message.address, reason: "cannot read '\(text)': \(error)")
        }
        guard checkWrite(index, Double(parsed), message, request) else { return }
        let result = parameter.setValue(parsed, originator: originator)
        guard let applied = result.appliedValue else { return }
        didSet(index, result, by: peer)
        if differs(index, applied, Double(parsed)) {
            reply(OSCMessage(address, [.string(parameter.asciiDisplayString(fromValue: applied))]), to: peer)
        }
    }

    private func touchMessage(_ index: Int, _ message: OSCMessageView, _ request: ServerRequest) {
        let peer = parameterPeer(request)
        guard let flag = message.double(at: 0), !flag.isNaN else {
            return badArguments(message, request, "expected 1 or 0")
        }
        let parameter = parameters[index]
        let begins = flag != 0
        if let state = peer.state {
            if begins {
                state.withSetterBuffers { $0.touching[index] = true }
            } else if state.isTouching(index) {
                let changedWhileHeld = state.withSetterBuffers { buffers in
                    buffers.touching[index] = false
                    defer { buffers.touchChanged[index] = false }
                    return buffers.touchChanged[index]
                }
                if changedWhileHeld {
                    // E4 and rule 9.6: the final value once, if it changed while held.
                    markPending(peer, state, index, kind: 3, now: Self.now())
                }
            }
        }
        parameter.setValue(parameter.value, originator: originator, eventType: begins ? .touch : .release)
        sendTouchState(index, begins: begins, except: peer)
    }

    private func resetMessage(_ index: Int, _ message: OSCMessageView, _ request: ServerRequest) {
        let peer = parameterPeer(request)
        if message.argumentCount > 0 {
            guard let flag = message.double(at: 0) else { return badArguments(message, request, "expected a number") }
            // A button's release (`f 0`) resets nothing.
            guard flag != 0 else { return }
        }
        guard checkWrite(index, 0, message, request) else { return }
        let result = parameters[index].reset(originator: originator)
        didSet(index, result, by: peer)
    }

    private func getMessage(
        _ index: Int, _ message: OSCMessageView, _ request: ServerRequest, facet: ParameterReadFacet
    ) {
        parameterPeer(request)
        guard let destination = replyDestination(message, request) else { return }
        let parameter = parameters[index]
        let address = addresses[index].value
        let answer =
            switch facet {
            case .normalized: OSCMessage(address, [.float32(Float(parameter.normalizedValue))])
            case .raw: OSCMessage(address + "/raw", [.float32(Float(parameter.value))])
            case .text: OSCMessage(address + "/str", [.string(parameter.asciiDisplayString())])
            }
        send(answer, to: destination, peer: peers[destination.id])
    }

    /// The unit as `P/info` and `/sys/list` send it (rule 9.4): `boolean` and `indexed` for those
    /// kinds, so that a remote surface can draw a toggle or a list; the short symbol otherwise.
    static func unitText(_ parameter: Parameter) -> String {
        switch parameter.unit {
        case .boolean: "boolean"
        case .indexed: "indexed"
        default: parameter.unitName
        }
    }

    private func infoMessage(_ index: Int, _ message: OSCMessageView, _ request: ServerRequest) {
        parameterPeer(request)
        guard let destination = replyDestination(message, request) else { return }
        let parameter = parameters[index]
        let fixed: [OSCArgument] = [
            .string(parameter.displayName), .string(Self.unitText(parameter)), .float32(parameter.minValue),
            .float32(parameter.maxValue), .float32(parameter.defaultValue), .string(parameter.taper.rawValue),
            .int32(Int32(bitPattern: parameter.flags.rawValue)),
        ]
        let address = addresses[index].value + "/info"
        let whole = OSCMessage(address, fixed + parameter.valueStrings.map { .string($0) })
        let limit = destination.datagramLimit
        guard whole.encodedSize > limit else { return send(whole, to: destination, peer: peers[destination.id]) }
        // Rule 9.14: too large for one datagram, so several messages, each with the fixed fields
        // and the next value strings, between update brackets.
        beginPackets(to: destination, peer: peers[destination.id])
        builder.append(OSCMessage("/sys/update", [.int32(1)]))
        var part = OSCMessage(address, fixed)
        let base = part.encodedSize
        var size = base
        for text in parameter.valueStrings {
            let cost = 4 + (text.utf8.count / 4 + 1) * 4
            if size + cost > limit - 64, part.arguments.count > fixed.count {
                builder.append(part)
                part = OSCMessage(address, fixed)
                size = base
            }
            part.arguments.append(.string(text))
            size += cost
        }
        builder.append(part)
        builder.append(OSCMessage("/sys/update", [.int32(0)]))
        endPackets()
    }

    // MARK: Helpers

    /// The peer of a parameter message, made an implicit subscriber if it is not a subscriber
    /// yet (rule 9.7); its current values follow once the message is handled.
    @discardableResult
    func parameterPeer(_ request: ServerRequest) -> ServerPeer {
        let peer = request.peer
        if configuration.implicitSubscriptions && !peer.isSubscriber && !peer.isLink
            && peer.destination.subscribesImplicitly
        {
            guard subscribers.count < configuration.maxPeers else {
                // Rule 9.12: refused with /sys/error (rate-limited like every error).
                stats.subscriberCap += 1
                sendError(
                    to: peer, address: "/sys/subscribe",
                    reason: "too many subscribers (at most \(configuration.maxPeers))")
                return peer
            }
            peer.subscriptions = [
                Subscription(patternText: "", pattern: nil, interval: 1.0 / 30, flags: 1, isImplicit: true)
            ]
            subscriptionsChanged(peer)
            initialValuesDue.append(peer)
            log(LogEvent(level: .info, message: "peer \(peer.description) subscribed implicitly"))
        }
        return peer
    }

    /// Refuses writes to read-only parameters and NaN (rules 9.2 and 9.3).
    private func checkWrite(_ index: Int, _ value: Double, _ message: OSCMessageView, _ request: ServerRequest) -> Bool
    {
        guard parameters[index].isWritable else {
            stats.readOnlyRefused += 1
            sendError(about: request, address: message.address, reason: "read-only parameter")
            return false
        }
        guard !value.isNaN else {
            stats.badArguments += 1
            sendError(about: request, address: message.address, reason: "NaN refused")
            return false
        }
        return true
    }

    private func badArguments(_ message: OSCMessageView, _ request: ServerRequest, _ reason: String) {
        stats.badArguments += 1
        var tags = ""
        for tag in message.typeTags { tags.append(Character(Unicode.Scalar(tag))) }
        sendError(about: request, address: message.address, reason: "\(reason), got ',\(tags)'")
    }

    /// Whether a raw value sent differs from the applied one by more than the tolerance of the range.
    private func differs(_ index: Int, _ applied: ParameterValue, _ sent: Double) -> Bool {
        let parameter = parameters[index]
        let span = max(Double(parameter.maxValue - parameter.minValue), 1e-30)
        return !(abs(Double(applied) - sent) <= Self.tolerance * span)
    }

    /// After a peer's write: the guard window starts (E4), the peer knows the value, and a
    /// change goes out to everyone else (E1, E2).
    func didSet(_ index: Int, _ result: ParameterSetResult, by peer: ServerPeer) {
        if let state = peer.state, let applied = result.appliedValue {
            let until = currentSeconds() + guardSeconds
            state.withSetterBuffers { $0.guardUntil[index] = until }
            state.lastSentValue[index] = applied
        }
        if result.changed { changed(index, origin: peer) }
    }

    /// Sends the packets `body` appends to `peer`.
    private func builderReply(to peer: ServerPeer, _ body: () -> Void) {
        beginPackets(to: peer.destination, peer: peer)
        body()
        endPackets()
    }

    /// The optional `s url` argument's destination, else the peer's; `nil` after an error.
    func replyDestination(_ message: OSCMessageView, _ request: ServerRequest) -> PeerDestination? {
        guard message.argumentCount > 0 else { return request.peer.destination }
        guard let text = message.string(at: 0) else {
            badArguments(message, request, "expected a url")
            return nil
        }
        switch destination(forURL: text, from: request.peer) {
        case .success(let destination): return destination
        case .failure(let error):
            stats.badArguments += 1
            sendError(about: request, address: message.address, reason: error.description)
            return nil
        }
    }

    /// Sends `P/touch` for a touch or release made through the tree by someone other than the
    /// server (called on any thread).
    func localTouch(_ index: Int, begins: Bool, from: ParameterObserverToken?) {
        guard from != originator else { return }
        sendTouchState(index, begins: begins, except: nil)
    }

    /// `P/touch i 1|0` to the subscribers that asked for touch state (flag 16), except the toucher.
    private func sendTouchState(_ index: Int, begins: Bool, except peer: ServerPeer?) {
        for subscriber in subscribers where subscriber !== peer {
            guard let state = subscriber.state, state.forms[index] & Subscription.Flag.touch != 0 else { continue }
            beginPackets(to: subscriber.destination, peer: subscriber)
            builder.appendInt(address: addresses[index].touchBytes, begins ? 1 : 0)
            endPackets()
        }
    }
}
