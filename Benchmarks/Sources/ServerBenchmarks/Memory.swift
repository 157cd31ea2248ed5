import CServerPeer
import Glibc

/// Resident size of a server process: started as a child, measured idle, then with 64 subscribed
/// peers after a burst of sets from one of them (so that every queue and table has been used).
struct Memory {
    var idleKiB: Int
    var subscribedKiB: Int
    var peakKiB: Int
    var confirmed: Int
    /// With the peers subscribed: the process's own memory, and pages of mapped files (the shared
    /// libraries' code and data, shared with every process that maps them).
    var anonymousKiB = 0
    var fileKiB = 0
    /// The process's own memory when idle (the tree served, no peer yet).
    var idleAnonymousKiB = 0

    static func measure(_ arguments: [String], peers: Int, sets: Int) -> Memory? {
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: Int32 = -1
        var stdinFD: Int32 = -1
        let port = kb_sp_spawn_server(&cArguments, 10_000, &pid, &stdinFD)
        defer { _ = kb_sp_end_child(pid, stdinFD) }
        // A server never announces port 0; the idle baseline child (no server) does.
        guard port > 0 || (port == 0 && peers == 0) else {
            print("  (\(arguments.joined(separator: " ")) did not announce a port)")
            return nil
        }
        // Let the child settle (threads started, first allocations done) before the idle figure.
        sleepMilliseconds(200)
        var rss = 0
        var hwm = 0
        _ = kb_sp_resident_kib(pid, &rss, &hwm)
        let idle = rss
        var anonymous = 0
        var file = 0
        _ = kb_sp_resident_parts_kib(pid, &anonymous, &file)
        let idleAnonymous = anonymous
        guard peers > 0 else { return Memory(idleKiB: idle, subscribedKiB: rss, peakKiB: hwm, confirmed: 0) }
        var fds = [Int32](repeating: -1, count: peers)
        let confirmed = kb_sp_subscribe_peers(UInt16(port), Int32(peers), 30, &fds)
        kb_sp_send_sets(fds[0], UInt16(port), Int32(BenchTree.parameterCount), sets)
        sleepMilliseconds(500)
        kb_sp_drain(fds, Int32(peers))
        _ = kb_sp_resident_kib(pid, &rss, &hwm)
        _ = kb_sp_resident_parts_kib(pid, &anonymous, &file)
        kb_sp_close(fds, Int32(peers))
        return Memory(
            idleKiB: idle, subscribedKiB: rss, peakKiB: hwm, confirmed: Int(confirmed), anonymousKiB: anonymous,
            fileKiB: file, idleAnonymousKiB: idleAnonymous)
    }

    /// `VmRSS 29180 KiB (RssAnon 5000 + RssFile 24000), VmHWM 29180 KiB`.
    var detail: String {
        "VmRSS \(subscribedKiB) KiB (RssAnon \(anonymousKiB) + RssFile \(fileKiB)), VmHWM \(peakKiB) KiB; "
            + "idle RssAnon \(idleAnonymousKiB) KiB"
    }

    var summary: String {
        "\(megabytes(subscribedKiB)) with \(confirmed) peers (idle \(megabytes(idleKiB)), peak \(megabytes(peakKiB)))"
    }
}

func megabytes(_ kib: Int) -> String {
    "\(Double(kib * 10 / 1024) / 10) MiB"
}

func sleepMilliseconds(_ milliseconds: Int) {
    usleep(UInt32(milliseconds * 1000))
}
