import Foundation
import Testing

/// The Avahi daemon of the tests: `scripts/avahi-netns.sh` runs it (and, if need be, the D-Bus
/// system bus) inside the network namespace `klmdns`, which has only loopback, so that no mDNS
/// packet leaves the machine.
enum AvahiDaemon {
    /// The script's exit status for "cannot run here": not root, no network namespaces, a
    /// package missing.
    static let cannotRunHere: Int32 = 77

    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("scripts")
    static let script = scripts.appendingPathComponent("avahi-netns.sh").path

    /// The python with PyPI's `zeroconf` that Scripts/install-deps.sh sets up in the package's
    /// `.build` folder.
    static let python = scripts.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/zeroconf-venv/bin/python").path

    static var hasPythonZeroconf: Bool { FileManager.default.isExecutableFile(atPath: python) }

    /// Where the script keeps the daemon's configuration, one folder a test process.
    static let stateDirectory = FileManager.default.temporaryDirectory
        .appendingPathComponent("knoblink-zeroconf-\(ProcessInfo.processInfo.processIdentifier)").path

    /// The first start, run once by the suite's condition: whether the machine allows the
    /// daemon at all, and the script's message when it does not.
    private static let firstStart = Task {
        await Command.run("/bin/bash", [script, "start", stateDirectory], timeout: .seconds(15))
    }

    /// Whether the machine allows the daemon (the script did not answer 77); says why not on
    /// standard error, since the skip's own comment cannot carry the script's reason.
    static func isAvailable() async -> Bool {
        let result = await firstStart.value
        guard result.status == cannotRunHere else { return true }
        FileHandle.standardError.write(Data("ZeroconfTests skipped: \(result.stderr)".utf8))
        return false
    }

    /// Starts the daemon unless it runs (idempotent, 0.1 s when it does); records an issue and
    /// returns `false` when it cannot be started.
    @discardableResult
    static func start() async -> Bool {
        let result = await Command.run("/bin/bash", [script, "start", stateDirectory], timeout: .seconds(15))
        if result.status != 0 {
            Issue.record("avahi-netns.sh start failed (\(String(describing: result.status))): \(result.stderr)")
        }
        return result.status == 0
    }

    /// Stops the daemon the way a restart or a crash would end it: its D-Bus name goes away.
    static func kill() async {
        let result = await Command.run("/bin/bash", [script, "kill-avahi", stateDirectory])
        if result.status != 0 { Issue.record("avahi-netns.sh kill-avahi failed: \(result.stderr)") }
    }

    static func stop() async {
        _ = await Command.run("/bin/bash", [script, "stop", stateDirectory])
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where Scripts/install-deps.sh has set up PyPI's zeroconf.
    static var pythonZeroconf: Self {
        .enabled("needs .build/zeroconf-venv with PyPI's zeroconf (Scripts/install-deps.sh)") {
            AvahiDaemon.hasPythonZeroconf
        }
    }
}
