import CAvahi
import Locking

/// Publishes an instance's services through the Avahi daemon, so that controllers on the
/// network find it by itself (DNS-SD over mDNS).
///
/// Every service goes under one name, the instance's. When another instance has that name,
/// the advertiser takes Avahi's next alternative (`name #2`, then `name #3`) and logs it;
/// ``establishedName`` and `onEstablished` tell which name the services ended up under. When
/// the daemon restarts, the services come back by themselves once it runs again. Without a
/// daemon, ``start()`` logs one line and returns, and nothing runs in the background.
///
/// ```swift
/// let advertiser = ZeroconfAdvertiser(
///     name: "Studio", services: [.osc(port: 9000), .oscQuery(port: 9000)],
///     log: { level, message in print(message) })
/// advertiser.start()
/// // …
/// advertiser.stop()
/// ```
///
/// Avahi's event loop runs on a thread of its own; `log` and `onEstablished` are called there
/// (and `log` also inside ``start()``). They must not call ``start()`` or ``stop()``.
public final class ZeroconfAdvertiser: Sendable {
    /// The service name asked for, as it is published: at most 63 bytes of UTF-8 (see ``init(name:services:log:onEstablished:)``).
    public let name: String
    /// The services published under ``name``.
    public let services: [ZeroconfService]

    private let log: @Sendable (ZeroconfLogLevel, String) -> Void
    /// Why the system bus cannot be reached, asked before the library is opened.
    private let systemBus: @Sendable () -> String?
    /// libavahi-client, opened when an advertiser first starts where a system bus listens.
    private let library: @Sendable () -> Result<AvahiLibrary, AvahiLibraryError>
    private let onEstablished: @Sendable (String) -> Void
    private let state = Locked<Running?>(nil)

    /// The threaded poll and the session it drives, while the advertiser runs.
    private struct Running: @unchecked Sendable {
        // Both are confined as AvahiSession describes; the lock only hands them over.
        let poll: OpaquePointer
        let session: AvahiSession
    }

    /// An advertiser of `services` under `name`; nothing is published before ``start()``.
    ///
    /// - Parameters:
    ///   - name: The service name, usually the server's `--name`. Control characters become
    ///     spaces; a name longer than 63 bytes of UTF-8 is cut at the last whole character that
    ///     fits; an empty name becomes `KnobLink`.
    ///   - services: At most one service of each ``ZeroconfService/Kind``.
    ///   - log: Receives every line the advertiser has to say, each a whole sentence.
    ///   - onEstablished: Called with the name each time the daemon has established all of the
    ///     services: after ``start()``, after a rename and after the daemon came back.
    public convenience init(
        name: String, services: [ZeroconfService],
        log: @escaping @Sendable (ZeroconfLogLevel, String) -> Void,
        onEstablished: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.init(
            name: name, services: services, systemBus: { SystemBus.unreachableReason() },
            library: { AvahiLibrary.shared }, log: log, onEstablished: onEstablished)
    }

    /// An advertiser that asks `systemBus` whether the bus listens and takes Avahi's functions
    /// from `library` (tests give it a library that cannot be opened).
    init(
        name: String, services: [ZeroconfService],
        systemBus: @escaping @Sendable () -> String?,
        library: @escaping @Sendable () -> Result<AvahiLibrary, AvahiLibraryError>,
        log: @escaping @Sendable (ZeroconfLogLevel, String) -> Void,
        onEstablished: @escaping @Sendable (String) -> Void
    ) {
        precondition(
            Set(services.map(\.kind)).count == services.count,
            "ZeroconfAdvertiser: one service of each kind, since they share one name")
        self.name = ZeroconfServiceName.sanitized(name)
        self.services = services
        self.systemBus = systemBus
        self.library = library
        self.log = log
        self.onEstablished = onEstablished
    }

    deinit {
        stop()
    }

    /// The name the services are established under, `nil` while they are not (before the
    /// daemon has confirmed them, during a rename, while the daemon is away, after ``stop()``).
    public var establishedName: String? {
        state.withLock { running in running?.session.established.withLock { $0 } }
    }

    /// Whether the advertiser runs: ``start()`` reached the daemon and ``stop()`` has not been
    /// called.
    public var isRunning: Bool {
        state.withLock { $0 != nil }
    }

    /// Connects to the Avahi daemon and publishes the services; returns at once, before the
    /// daemon has established them.
    ///
    /// Does nothing when the advertiser runs already. When no daemon can be reached (no D-Bus
    /// system bus, or no `avahi-daemon` on it) it logs exactly one line that says so and how to
    /// start one or turn Zeroconf off, and returns with nothing left running; a later call
    /// tries again. So it does when Avahi's client library is not installed. Without a system bus
    /// the library is not even loaded: the advertiser first connects to the bus's socket.
    public func start() {
        state.withLock { running in
            guard running == nil else { return }
            if let reason = systemBus() {
                log(.warning, Self.noDaemonMessage(reason))
                return
            }
            let api: KBAvahiAPI
            switch library() {
            case .success(let loaded): api = loaded.api
            case .failure(let error):
                log(.warning, error.description)
                return
            }
            guard let poll = api.threaded_poll_new() else {
                log(.warning, "zeroconf off: cannot create Avahi's event loop")
                return
            }
            let session = AvahiSession(
                api: api, poll: poll, name: name, services: services, log: log,
                onEstablished: onEstablished)
            // Without NO_FAIL, a missing daemon is an error now rather than a wait for one.
            if let error = session.connect(flags: AvahiClientFlags(0)) {
                session.tearDown()
                api.threaded_poll_free(poll)
                log(.warning, Self.unavailableMessage(error, api: api))
                return
            }
            guard api.threaded_poll_start(poll) == 0 else {
                session.tearDown()
                api.threaded_poll_free(poll)
                log(.warning, "zeroconf off: cannot start Avahi's event loop thread")
                return
            }
            running = Running(poll: poll, session: session)
        }
    }

    /// Withdraws the services and ends the connection to the daemon.
    ///
    /// When it returns, Avahi's thread has been joined and the entry group and client freed,
    /// so the daemon has dropped the records (other hosts see them go with its goodbye
    /// packets). Calling it again, or without ``start()``, does nothing.
    public func stop() {
        let taken = state.withLock { running in
            defer { running = nil }
            return running
        }
        guard let running = taken else { return }
        let api = running.session.api
        _ = api.threaded_poll_stop(running.poll)
        running.session.tearDown()
        api.threaded_poll_free(running.poll)
    }

    private static func noDaemonMessage(_ reason: String) -> String {
        "zeroconf off: no Avahi daemon runs (\(reason)); start one (`systemctl start avahi-daemon`, "
            + "or `avahi-daemon -D` with D-Bus running) or pass --no-zeroconf"
    }

    private static func unavailableMessage(_ error: Int32, api: KBAvahiAPI) -> String {
        let reason = api.strerror(error).map { String(cString: $0) } ?? "error \(error)"
        switch error {
        case Int32(AVAHI_ERR_NO_DAEMON), Int32(AVAHI_ERR_DBUS_ERROR):
            return noDaemonMessage(reason)
        default:
            return "zeroconf off: cannot reach the Avahi daemon (\(reason)); pass --no-zeroconf to not try"
        }
    }
}
