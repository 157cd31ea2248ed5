import Dispatch
import Locking
import OSCCore
import Parameters
import UncheckedState

extension ServerCore {
    // MARK: Subscriptions to dense state

    /// Rebuilds a peer's per-parameter forms and rates from its subscriptions, and keeps the
    /// subscriber list in step.
    func subscriptionsChanged(_ peer: ServerPeer) {
        defer {
            subscriberEntries = subscribers.map {
                SubscriberEntry(peer: UncheckedReference($0), state: UncheckedReference($0.state!))
            }
        }
        guard peer.isSubscriber else {
            peer.state = nil
            subscribers.removeAll { $0 === peer }
            stopWaiting(peer)
            return
        }
        let state = peer.state ?? SubscriberState(count: parameters.count)
        if peer.state == nil {
            peer.state = state
            subscribers.append(peer)
        }
        state.minimumInterval = peer.subscriptions.map(\.interval).min() ?? 0
        state.resetIntervals()
        for index in parameters.indices {
            var forms: UInt8 = 0
            var interval = Double.infinity
            for subscription in peer.subscriptions where matches(subscription, index: index) {
                forms |= subscription.flags
                interval = min(interval, subscription.interval)
            }
            state.forms[index] = forms
            state.setInterval(index, interval.isFinite ? Float(interval) : 0)
        }
    }

    func matches(_ subscription: Subscription, index: Int) -> Bool {
        subscription.matches(addresses[index].value)
    }

    // MARK: Changes

    /// A change made outside the server (a knob, the embedding application): called on any thread.
    static func localChange(
        _ index: Int, generation: Int, changes localChanges: Locked<LocalChanges>, reference: CoreReference
    ) {
        let schedule = localChanges.withLock { changes -> Bool in
            guard changes.generation == generation, index < changes.marked.count else { return false }
            if !changes.marked[index] {
                changes.marked[index] = true
                changes.list.append(index)
            }
            if changes.scheduled { return false }
            changes.scheduled = true
            return true
        }
        if schedule {
            reference.execute { $0.drainLocalChanges() }
        }
    }

    func drainLocalChanges() {
        let list = localChanges.withLock { changes -> [Int] in
            let list = changes.list
            for index in list { changes.marked[index] = false }
            changes.list.removeAll(keepingCapacity: true)
            changes.scheduled = false
            return list
        }
        guard !stopped else { return }
        for index in list { changed(index, origin: nil) }
        flushDue(now: Self.now())
    }

    /// Fans a changed value out to every subscriber of it (E1), except the originator unless it
    /// asked for its own echo (E2), holding it for peers that touch it (E4).
    func changed(_ index: Int, origin: ServerPeer?) {
        stats.setsApplied += 1
        for observer in changeObservers { observer(self, index, origin) }
        let now = currentSeconds()
        // A buffer, not the array: iterating the array checked its bounds on every subscriber.
        subscriberEntries.withUnsafeBufferPointer { entries in
            for entry in entries {
                entry.state.withObject { state in
                    let forms = state.forms[index]
                    guard forms & ~Subscription.Flag.echoToSelf & ~Subscription.Flag.touch != 0 else { return }
                    if entry.peer.refers(to: origin) {
                        guard forms & Subscription.Flag.echoToSelf != 0 else { return }
                        entry.peer.withObject { peer in markPending(peer, state, index, kind: 2, now: now) }
                        return
                    }
                    if state.isTouching(index) {
                        state.withSetterBuffers { $0.touchChanged[index] = true }
                        return
                    }
                    entry.peer.withObject { peer in markPending(peer, state, index, kind: 1, now: now) }
                }
            }
        }
    }

    /// Marks a value to send; `kind` 2 skips the guard window, 3 skips the rate too.
    func markPending(_ peer: ServerPeer, _ state: SubscriberState, _ index: Int, kind: UInt8, now: Double) {
        if state.pending[index] == 0 {
            // Each index is in the list at most once, so it never outgrows its buffer.
            state.dirty[state.dirtyCount] = Int32(index)
            state.dirtyCount += 1
        }
        state.pending[index] = kind
        if !peer.isWaiting {
            peer.isWaiting = true
            waiting.append(peer)
        }
        let due = dueTime(state, index)
        if due < nextDue { nextDue = due }
    }

    private func dueTime(_ state: SubscriberState, _ index: Int) -> Double {
        let kind = state.pending[index]
        if kind == 3 { return 0 }
        let rate = max(state.lastSent(index) + Double(state.interval(index)), state.nextFlush)
        return kind == 2 ? rate : max(rate, state.guardUntil(index))
    }

    /// Takes a peer out of the list of peers with values waiting, at once: a peer that left or
    /// stopped subscribing must not stay in it until the next value is due, which a slow rate
    /// can put seconds away while other peers come and go.
    func stopWaiting(_ peer: ServerPeer) {
        guard peer.isWaiting else { return }
        peer.isWaiting = false
        waiting.removeAll { $0 === peer }
    }

    // MARK: Sending waiting values (E5)

    /// Sends every waiting value that is due, one bundle per peer, and sets a timer for the rest.
    func flushDue(now: Double) {
        guard !waiting.isEmpty else { return }
        guard now >= nextDue else {
            // Nothing due yet: make sure a timer comes back for the earliest value.
            if nextDue.isFinite { armTimer(at: nextDue) }
            return
        }
        feedback.beginRound()
        var earliest = Double.infinity
        var kept = 0
        for position in waiting.indices {
            let peer = waiting[position]
            let next = flush(peer, now: now)
            if next.isFinite {
                waiting[kept] = peer
                kept += 1
                earliest = min(earliest, next)
            } else {
                peer.isWaiting = false
            }
        }
        waiting.removeLast(waiting.count - kept)
        nextDue = earliest
        if earliest.isFinite { armTimer(at: earliest) }
    }

    /// Sends `peer`'s due values; returns when the next one is due (infinity if none waits).
    private func flush(_ peer: ServerPeer, now: Double) -> Double {
        guard let state = peer.state, peer.isInTable else { return .infinity }
        var next = Double.infinity
        var kept = 0
        var began = false
        let count = state.dirtyCount
        for position in 0..<count {
            let index = Int(state.dirty[position])
            if state.isTouching(index) {
                state.pending[index] = 0
                state.withSetterBuffers { $0.touchChanged[index] = true }
                continue
            }
            let due = dueTime(state, index)
            if due > now {
                state.dirty[kept] = Int32(index)
                kept += 1
                next = min(next, due)
                continue
            }
            let kind = state.pending[index]
            state.pending[index] = 0
            let value = feedback.value(index, of: parameters)
            if value == state.lastSentValue[index] && kind != 2 {
                // E3: a value the peer already has is never sent again (a flag-8 echo is asked for).
                continue
            }
            if !began {
                beginPackets(to: peer.destination, peer: peer)
                began = true
            }
            appendValue(index, value: value, forms: state.forms[index])
            state.setLastSent(index, now)
            state.lastSentValue[index] = value
        }
        state.dirtyCount = kept
        if began {
            endPackets()
            state.nextFlush = now + state.minimumInterval
        }
        return next
    }

    /// Appends a parameter's value in each of `forms` to the packets being built.
    func appendValue(_ index: Int, value: Float, forms: UInt8) {
        if forms & Subscription.Flag.normalized != 0 {
            feedback.appendNormalized(index, feedback.normalized(index, value: value, of: parameters), to: builder)
        }
        if forms & Subscription.Flag.strings != 0 {
            let text = parameters[index].asciiDisplayString(fromValue: value)
            builder.append(OSCMessage(addresses[index].value + "/str", [.string(text)]))
        }
        if forms & Subscription.Flag.raw != 0 {
            feedback.appendRaw(index, value, to: builder)
        }
    }

    private func armTimer(at deadline: Double) {
        guard timer == nil || deadline < timerDeadline else { return }
        timer?.cancel()
        timerDeadline = deadline
        let delay = min(max(deadline - Self.now(), 0), 3600)
        timer = loop.schedule(at: Deadline.after(seconds: delay) + .nanoseconds(1)) { [reference] in
            reference.withCore { core in
                guard !core.stopped else { return }
                core.timer = nil
                core.timerDeadline = .infinity
                core.flushDue(now: max(Self.now(), deadline))
            }
        }
    }

    // MARK: Current values

    /// Sends the current values of the parameters `peer` subscribes to (all of them, in the
    /// normalised form, for a peer without subscription), between `/sys/update` brackets.
    /// - Parameter brackets: whether `/sys/update i 1` and `i 0` frame the values (not for a
    ///   WebSocket LISTEN, whose OSCQuery clients expect the value alone).
    func sendCurrentValues(
        to destination: PeerDestination, peer: ServerPeer?, only subscription: Subscription? = nil,
        brackets: Bool = true
    ) {
        beginPackets(to: destination, peer: peer)
        if brackets { builder.append(OSCMessage("/sys/update", [.int32(1)])) }
        let state = peer?.state
        // Whether the values go to the peer itself (not to another url it asked for): then it has them.
        let toPeer = peer.map { $0.destination.id == destination.id } ?? false
        for index in parameters.indices {
            var forms = Subscription.Flag.normalized
            if let subscription {
                guard matches(subscription, index: index) else { continue }
                forms = subscription.flags
            } else if let state {
                forms = state.forms[index]
            }
            guard forms & (Subscription.Flag.normalized | Subscription.Flag.strings | Subscription.Flag.raw) != 0 else {
                continue
            }
            let value = parameters[index].value
            appendValue(index, value: value, forms: forms)
            if let state, toPeer {
                state.lastSentValue[index] = value
            }
        }
        if brackets { builder.append(OSCMessage("/sys/update", [.int32(0)])) }
        endPackets()
    }
}
