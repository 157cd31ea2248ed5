import Dispatch
import OSCCore
import OSCQuery
import Parameters

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// What a tree reload did: the new tree's size and the parameters' OSC addresses (without the
/// root) that came and went.
public struct TreeReloadReport: Sendable, Hashable, CustomStringConvertible {
    /// How many parameters the new tree has.
    public var parameters: Int
    /// How many of them were in the old tree too, and kept their values.
    public var kept: Int
    /// Parameters only the new tree has.
    public var added: [String]
    /// Parameters only the old tree had.
    public var removed: [String]

    public var description: String {
        "\(parameters) parameters (\(kept) kept, \(added.count) added, \(removed.count) removed)"
    }
}

extension ServerCore {
    /// Serves `newTree` from now on, keeping every peer and what it has for the addresses that
    /// remain (PROTOCOL.md section 7, tree changes).
    ///
    /// A parameter whose OSC address is in both trees keeps its value (clamped to its new range);
    /// subscriptions go on (a pattern that now matches more parameters gets them), with each
    /// kept parameter's rate, last value sent, waiting value, touch and guard window; values
    /// waiting for the links go out before the swap. Subscribers get the new parameters' values
    /// and the kept ones that the new range changed, and each WebSocket client gets
    /// `PATH_ADDED`/`PATH_REMOVED` (or one `PATH_CHANGED "/"`). Nothing is changed when the new
    /// tree's addresses cannot be served.
    ///
    /// Call on the loop, outside of a dispatch (the dispatcher is emptied and filled again).
    func reloadTree(_ newTree: ParameterTree) throws(KnobLinkServerError) -> TreeReloadReport {
        let root = try Self.validatedRoot(configuration.root)
        for parameter in newTree.allParameters {
            let address = root + parameter.oscAddress
            guard let pattern = try? OSCAddressPattern(address), !pattern.hasWildcards else {
                throw .treeNotReloaded(reason: "'\(address)' cannot be an OSC address")
            }
        }
        // What waits was counted against the old indexes: send it first.
        drainLocalChanges()
        links?.treeWillChange()

        let oldParameters = parameters
        // The namespaces are laid out for the path notifications only where a WebSocket client
        // is there to get them.
        let oldNamespace = httpSessions.values.contains { $0.webSocket != nil } ? namespace : nil
        var oldIndex: [String: Int] = [:]
        for (index, parameter) in oldParameters.enumerated() { oldIndex[parameter.oscAddress] = index }
        let previous = newTree.allParameters.map { oldIndex[$0.oscAddress] ?? -1 }
        // Kept values, set before anything observes the new tree: no observer hears them.
        for (parameter, before) in zip(newTree.allParameters, previous) where before >= 0 {
            parameter.setValue(oldParameters[before].value)
        }
        let oldNormalized = previous.map { $0 >= 0 ? oldParameters[$0].normalizedValue : .nan }
        let states = peers.values.compactMap { peer in peer.state.map { (peer, $0) } }

        replaceTree(with: newTree, root: root)
        do {
            dispatcher.removeAll()
            try registerMethods()
        } catch {
            // The addresses were checked above; registering them again cannot fail.
            preconditionFailure("tree reload: \(error)")
        }
        for (peer, old) in states {
            let state = SubscriberState(count: parameters.count)
            state.carry(from: old, previous: previous)
            peer.state = state
            subscriptionsChanged(peer)
        }
        links?.treeDidChange()

        for (index, before) in previous.enumerated()
        where before < 0 || abs(parameters[index].normalizedValue - oldNormalized[index]) > Self.tolerance {
            changed(index, origin: nil)
        }
        flushDue(now: currentSeconds())
        if let oldNamespace { notifyPathChanges(OSCQueryPathChanges(from: oldNamespace, to: namespace)) }

        let kept = Set(previous.filter { $0 >= 0 })
        let report = TreeReloadReport(
            parameters: parameters.count, kept: kept.count,
            added: zip(parameters, previous).filter { $0.1 < 0 }.map(\.0.oscAddress),
            removed: oldParameters.indices.filter { !kept.contains($0) }.map { oldParameters[$0].oscAddress })
        stats.treeReloads += 1
        log(LogEvent(level: .info, message: "tree reloaded: \(report)"))
        treeReloadHandler(newTree)
        return report
    }

    /// Reads `treeFile` again off the loop and serves it (``reloadTree(_:)``); `completion` gets
    /// the outcome on the loop. A file that fails to load changes nothing.
    func reloadTreeFile(
        completion: @escaping @Sendable (ServerCore, Result<TreeReloadReport, KnobLinkServerError>) -> Void
    ) {
        let reference = reference
        guard let path = configuration.treeFile else {
            stats.treeReloadsRefused += 1
            let reason = "the server runs on its built-in tree; start it with --tree FILE to reload one"
            return completion(self, .failure(.treeNotReloaded(reason: reason)))
        }
        // Reading and parsing up to 8 MiB of JSON is not for the loop, which serves every peer.
        DispatchQueue.global().async {
            let loaded = Result { () throws(ParameterTreeError) in
                try ParameterTree(contentsOf: URL(fileURLWithPath: path))
            }
            reference.execute { core in
                let result = loaded.mapError { KnobLinkServerError.treeNotReloaded(reason: "\(path): \($0)") }
                    .flatMap { tree in Result { () throws(KnobLinkServerError) in try core.reloadTree(tree) } }
                if case .failure(let error) = result {
                    core.stats.treeReloadsRefused += 1
                    core.log(LogEvent(level: .error, message: error.description))
                }
                completion(core, result)
            }
        }
    }

    /// `/sys/tree/reload`: reads the `--tree` file again; the requester gets
    /// `/sys/tree/reloaded i parameters i added i removed`, or `/sys/error` with the reason.
    func treeReloadMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        let destination = request.peer.destination
        let address = message.address
        reloadTreeFile { core, result in
            // The requester by its destination: the peer is the loop's, and may have left since.
            let peer = core.peer(for: destination)
            switch result {
            case .success(let report):
                let counts = [report.parameters, report.added.count, report.removed.count]
                core.reply(OSCMessage("/sys/tree/reloaded", counts.map { .int32(Int32(clamping: $0)) }), to: peer)
            case .failure(let error):
                core.sendError(to: peer, address: address, reason: error.description)
            }
        }
    }

    /// Every method of the address space: the parameters', `/sys/…`, `/wave/…` and the links'.
    ///
    /// The parameters' come last: their registrations are reserved at their exact count, and one
    /// more would grow the arrays to twice that.
    func registerMethods() throws {
        try registerSystemMethods()
        try registerWaveMethods()
        try LinkRuntime.registerMethods(of: self)
        try registerParameterMethods()
    }

    /// Sends each WebSocket client the notifications of `changes` as text frames.
    private func notifyPathChanges(_ changes: OSCQueryPathChanges) {
        let texts = changes.notifications().map { namespace.text(of: $0) }
        guard !texts.isEmpty else { return }
        for session in httpSessions.values {
            guard let webSocket = session.webSocket else { continue }
            for text in texts { webSocket.send(text: text) }
        }
    }
}
