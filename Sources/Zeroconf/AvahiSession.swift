import CAvahi
import Locking

/// One advertising run: the Avahi client, its entry group and the name in use, driven by the
/// callbacks of an `AvahiThreadedPoll`.
///
/// Confined to the poll: its state is touched only before the poll's thread starts (in
/// ``ZeroconfAdvertiser/start()``), by callbacks on that thread (which Avahi calls with the
/// poll's lock held), and after the thread has been joined (in ``tearDown()``). That is why it
/// may be `@unchecked Sendable`: it crosses to the poll thread once, through the callbacks'
/// user data, and never runs on two threads at once. What other threads read, ``established``,
/// sits behind a lock of its own (`Locked`).
final class AvahiSession: @unchecked Sendable {
    /// The most names tried in a row before giving up: each taken name costs a round trip to
    /// the daemon, and a network that answers every name with a conflict must not keep us busy.
    static let maximumRenames = 100

    /// Avahi's functions, which the advertiser also calls once the poll has stopped.
    let api: KBAvahiAPI
    private let poll: OpaquePointer
    private let requestedName: String
    private let services: [ZeroconfService]
    private let log: @Sendable (ZeroconfLogLevel, String) -> Void
    private let onEstablished: @Sendable (String) -> Void
    /// The name the daemon has established the services under, for any thread to read.
    let established = Locked<String?>(nil)

    private var client: OpaquePointer?
    private var group: OpaquePointer?
    /// The name the services are published under now: the requested one or an alternative.
    private var name: String
    private var renames = 0
    /// The zero-delay timeout that frees a failed client outside of the client's own callback.
    private var recovery: OpaquePointer?
    /// Whether the recovery connects anew (the daemon went away) or only frees the client.
    private var reconnects = false

    init(
        api: KBAvahiAPI, poll: OpaquePointer, name: String, services: [ZeroconfService],
        log: @escaping @Sendable (ZeroconfLogLevel, String) -> Void,
        onEstablished: @escaping @Sendable (String) -> Void
    ) {
        self.api = api
        self.poll = poll
        self.requestedName = name
        self.name = name
        self.services = services
        self.log = log
        self.onEstablished = onEstablished
    }

    private var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func session(_ userData: UnsafeMutableRawPointer?) -> AvahiSession? {
        userData.map { Unmanaged<AvahiSession>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Creates the client; its callback may already run inside this call and publish.
    ///
    /// - Returns: Avahi's error code when no client could be created, `nil` on success.
    func connect(flags: AvahiClientFlags) -> Int32? {
        var error: Int32 = 0
        let created = api.client_new(
            api.threaded_poll_get(poll), flags,
            { client, state, userData in
                guard let client, let session = AvahiSession.session(userData) else { return }
                session.clientChanged(client, state)
            }, userData, &error)
        guard let created else {
            // avahi_client_new has freed the client (and any group of it) that its callback saw.
            client = nil
            group = nil
            return error
        }
        client = created
        return nil
    }

    /// Frees the group and the client, which withdraws the services from the daemon at once.
    ///
    /// Call only when the poll's thread has stopped (or from one of its callbacks).
    func tearDown() {
        if let recovery, let poll = api.threaded_poll_get(poll) {
            poll.pointee.timeout_free(recovery)
        }
        recovery = nil
        freeClient()
    }

    private func freeClient() {
        if let group { _ = api.entry_group_free(group) }
        group = nil
        if let client { api.client_free(client) }
        client = nil
        setEstablished(nil)
    }

    private func setEstablished(_ value: String?) {
        established.withLock { $0 = value }
    }

    // MARK: - The client's states

    private func clientChanged(_ client: OpaquePointer, _ state: AvahiClientState) {
        // The first call comes from inside `avahi_client_new`, before it has returned the client.
        self.client = client
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            renames = 0
            publish(client)
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            // The host name is being (re)established: our records would point at a name that
            // is not ours yet. Withdraw them; S_RUNNING publishes them again.
            if let group { _ = api.entry_group_reset(group) }
            setEstablished(nil)
        case AVAHI_CLIENT_FAILURE:
            let error = api.client_errno(client)
            if error == Int32(AVAHI_ERR_DISCONNECTED) {
                log(.warning, "zeroconf: the Avahi daemon went away; advertising again when it is back")
                scheduleRecovery(reconnecting: true)
            } else {
                log(.warning, "zeroconf off: the Avahi client failed (\(describe(error)))")
                scheduleRecovery(reconnecting: false)
            }
        default:
            break  // AVAHI_CLIENT_CONNECTING: waiting for the daemon, nothing to publish yet.
        }
    }

    /// Frees the failed client from a zero-delay timeout rather than from inside its own
    /// callback, which Avahi is still running.
    private func scheduleRecovery(reconnecting: Bool) {
        setEstablished(nil)
        reconnects = reconnecting
        guard recovery == nil, let poll = api.threaded_poll_get(poll) else { return }
        var now = timeval(tv_sec: 0, tv_usec: 0)  // in the past: fires on the next turn
        recovery = poll.pointee.timeout_new(
            poll, &now,
            { _, userData in AvahiSession.session(userData)?.recover() }, userData)
    }

    private func recover() {
        if let recovery, let poll = api.threaded_poll_get(poll) {
            poll.pointee.timeout_free(recovery)
        }
        recovery = nil
        freeClient()
        guard reconnects else { return }
        name = requestedName
        // NO_FAIL: the new client waits in AVAHI_CLIENT_CONNECTING until the daemon is back.
        if let error = connect(flags: AVAHI_CLIENT_NO_FAIL) {
            log(.warning, "zeroconf off: cannot reconnect to the Avahi daemon (\(describe(error)))")
        }
    }

    // MARK: - Publishing

    /// Adds every service under `name` to the group and commits it, choosing the next
    /// alternative name while the daemon reports the name taken by another local service.
    private func publish(_ client: OpaquePointer) {
        if group == nil {
            group = api.entry_group_new(
                client,
                { group, state, userData in
                    guard let group, let session = AvahiSession.session(userData) else { return }
                    session.groupChanged(group, state)
                }, userData)
        }
        guard let group else {
            let reason = describe(api.client_errno(client))
            log(.warning, "zeroconf off: cannot create an Avahi entry group (\(reason))")
            return
        }
        while true {
            _ = api.entry_group_reset(group)  // an error shows again in the add below
            let error = add(to: group)
            if error == Int32(AVAHI_ERR_COLLISION) {
                guard rename(takenBy: "another service on this host") else { return }
                continue
            }
            guard error == 0 else {
                log(.warning, "zeroconf off: Avahi refused the services (\(describe(error)))")
                return
            }
            let committed = api.entry_group_commit(group)
            if committed != 0 {
                log(.warning, "zeroconf off: Avahi refused the services (\(describe(committed)))")
            }
            return
        }
    }

    /// Adds every service to `group`; returns the first error, or 0.
    private func add(to group: OpaquePointer) -> Int32 {
        for service in services {
            var txt: UnsafeMutablePointer<AvahiStringList>?
            // avahi_string_list_add puts each string in front: add them back to front.
            for string in service.txtStrings.reversed() { txt = api.string_list_add(txt, string) }
            defer { api.string_list_free(txt) }
            let error = api.entry_group_add_service_strlst(
                group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0), name,
                service.kind.rawValue, nil, nil, service.port, txt)
            if error != 0 { return error }
        }
        return 0
    }

    /// Moves `name` to Avahi's next alternative (`name #2`, `name #3`, …) and says so.
    ///
    /// - Returns: `false` when ``maximumRenames`` names in a row were taken: then it gives up.
    private func rename(takenBy holder: String) -> Bool {
        renames += 1
        guard renames <= Self.maximumRenames, let alternative = api.alternative_service_name(name) else {
            log(.warning, "zeroconf off: \(Self.maximumRenames) names in a row were taken, the last '\(name)'")
            return false
        }
        defer { api.free(alternative) }
        let next = String(cString: alternative)
        log(.warning, "zeroconf: the name '\(name)' is taken by \(holder); advertising as '\(next)'")
        name = next
        return true
    }

    // MARK: - The entry group's states

    private func groupChanged(_ group: OpaquePointer, _ state: AvahiEntryGroupState) {
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            renames = 0
            setEstablished(name)
            let list = services.map { "\($0.kind.rawValue) port \($0.port)" }.joined(separator: ", ")
            log(.info, "zeroconf: advertising '\(name)' (\(list))")
            onEstablished(name)
        case AVAHI_ENTRY_GROUP_COLLISION:
            // Another host on the network has the name: Avahi has withdrawn the records already.
            setEstablished(nil)
            guard rename(takenBy: "another host on the network"), let client = api.entry_group_get_client(group)
            else { return }
            publish(client)
        case AVAHI_ENTRY_GROUP_FAILURE:
            setEstablished(nil)
            let error = api.entry_group_get_client(group).map(api.client_errno) ?? Int32(AVAHI_ERR_FAILURE)
            log(.warning, "zeroconf off: advertising failed (\(describe(error)))")
        default:
            break  // Uncommitted or registering: the daemon is probing, nothing to do until it ends.
        }
    }

    private func describe(_ error: Int32) -> String {
        guard let text = api.strerror(error) else { return "error \(error)" }
        return String(cString: text)
    }
}
