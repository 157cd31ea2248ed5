import BenchHarness
import CBenchPeer
import CLibLOServer
import CServerPeer
import Glibc

// The server: KnobLink's server against a reference server written with liblo's server API
// (Sources/CLibLOServer), both met by the same C peers (Sources/CServerPeer), in one run
// (Docs/BENCHMARKS.md, "Server"). Both serve /p/p0 … /p/p999. Options.usage lists the options.

let options = Options(CommandLine.arguments)
if let child = options.serveChild {
    if child == "knoblink" {
        KnobLinkSide.serveUntilStdinCloses()
    } else {
        // The baseline: this binary with no server, to show what the Swift runtime alone takes.
        print("port 0")
        fflush(nil)  // every stream: `stdout` is not concurrency-safe in Swift 6
        waitForStdinToClose()
    }
    exit(0)
}

let subscriberCount = 32
let targetRate = 200_000.0
let targetMemoryKiB = 30 * 1024

// MARK: set → echo latency

if options.only.contains("latency") {
    let sets = options.latencySets
    let report = Report(title: "Set → echo latency, \(sets) sets (\(options.rounds) rounds)")
    var samples = [UInt64](repeating: 0, count: sets)

    func echoes(_ start: () -> ServerUnderTest, _ address: String) -> EchoLatency {
        let server = start()
        defer { server.stop() }
        var lost = 0
        let switches = kb_context_switches()
        let written = kb_sp_latency(server.port, address, sets, &samples, &lost)
        precondition(written > 0, "\(server.name): the subscription was not confirmed, or no echo came")
        var result = EchoLatency(samples: samples[0..<written], lost: lost)
        result.switchesPerSet = Double(kb_context_switches() - switches) / Double(sets + 1000)
        return result
    }

    for (placement, mask) in [("one CPU", UInt64(0b01)), ("two CPUs", UInt64(0b11))] {
        _ = kb_pin_process(mask)
        let contenders: [(String, () -> EchoLatency)] = [
            ("KnobLink", { echoes({ KnobLinkSide.start() }, "/p/p5") }),
            ("KnobLink, default tree", { echoes({ KnobLinkSide.startDefaultTree() }, "/knob/gain") }),
            ("liblo ref", { echoes({ LibLOReference.start(parameters: BenchTree.parameterCount) }, "/p/p5") }),
            (
                "raw ping-pong",
                {
                    var cpus: [Int32] = [0, 0]
                    let switches = kb_context_switches()
                    let status = kb_raw_udp_rtt(sets, &samples, 0, &cpus)
                    precondition(status == 0, "raw round trip failed")
                    var result = EchoLatency(samples: samples[...], lost: 0)
                    result.switchesPerSet = Double(kb_context_switches() - switches) / Double(sets + 1000)
                    return result
                }
            ),
        ]
        var results: [String: [EchoLatency]] = [:]
        for round in 0..<options.rounds {
            let order = round % 2 == 0 ? Array(contenders.indices) : contenders.indices.reversed()
            for index in order {
                results[contenders[index].0, default: []].append(contenders[index].1())
            }
        }
        let rows: [(String, String, Double?)] = [
            ("KnobLink", "raw ping-pong", 0.5), ("KnobLink", "liblo ref", nil),
            ("KnobLink, default tree", "raw ping-pong", 0.5), ("liblo ref", "raw ping-pong", nil),
        ]
        for (ours, peer, target) in rows {
            let mine = EchoLatency.median(results[ours]!)
            let other = EchoLatency.median(results[peer]!)
            let label = ours == "KnobLink" ? "" : " (\(ours))"
            report.add(
                "set → echo p50, \(placement), vs \(peer)\(label)",
                knobLink: (ours == "liblo ref" ? "[liblo ref] " : "") + mine.summary,
                peer: "\(peer) \(other.summary)",
                ratio: Rounds.pairedRatio(
                    results[peer]!.map { Double($0.p50) }, results[ours]!.map { Double($0.p50) }),
                target: target)
        }
    }
    _ = kb_pin_process(0b11)
    report.printMarkdown()
    print("Latency ratios: the peer's p50 over the measured side's (≥ 0.50× means within 2× of the peer).\n")
}

// MARK: throughput

if options.only.contains("throughput") {
    let sets = options.throughputSets
    let bank = 16
    let knobLink: () -> ServerUnderTest = { KnobLinkSide.start() }
    let liblo: () -> ServerUnderTest = { LibLOReference.start(parameters: BenchTree.parameterCount) }
    // `bank` addresses: a controller moving 16 faders at once (a 30 Hz subscriber's rate then coalesces);
    // 1,000: each set on another parameter, so that a 30 Hz subscriber's packets carry hundreds of addresses.
    // Bundles of 16 sets (the bank moved at once) take most of the setter's per-datagram cost away, so that
    // the server, not the one setter thread, is what limits the rate.
    typealias Scenario = (
        name: String, start: () -> ServerUnderTest, subscribers: Int, maxHz: Float, addresses: Int, perDatagram: Int
    )
    let scenarios: [Scenario] = [
        ("KnobLink, 32 at 30 Hz", knobLink, subscriberCount, 30, bank, 1),
        ("KnobLink, 32 unlimited", knobLink, subscriberCount, 0, bank, 1),
        ("liblo ref, 32 unlimited", liblo, subscriberCount, 0, bank, 1),
        ("KnobLink, 32 at 30 Hz, 1000 addresses", knobLink, subscriberCount, 30, BenchTree.parameterCount, 1),
        ("KnobLink, no subscriber", knobLink, 0, 0, bank, 1),
        ("liblo ref, no subscriber", liblo, 0, 0, bank, 1),
        ("KnobLink, 32 at 30 Hz, bundles of 16", knobLink, subscriberCount, 30, bank, bank),
        ("KnobLink, no subscriber, bundles of 16", knobLink, 0, 0, bank, bank),
        ("liblo ref, no subscriber, bundles of 16", liblo, 0, 0, bank, bank),
    ]
    if let only = options.scenario {
        // Profiling: one scenario at full speed, no report.
        for scenario in scenarios where scenario.name == only {
            let run = Throughput.run(
                scenario.start, subscribers: scenario.subscribers, maxHz: scenario.maxHz,
                addresses: scenario.addresses, perDatagram: scenario.perDatagram, sets: sets, rate: 0)
            print("  [\(scenario.name)] \(Format.rate(run.appliedRate)) applied; \(run.summary)")
        }
        exit(0)
    }
    let report = Report(
        title: "Throughput, \(sets) sets of /p/pN f at full speed (\(options.rounds) rounds), "
            + "then paced at the announced capacity")
    var runs: [String: [Throughput]] = [:]
    for round in 0..<options.rounds {
        let order = round % 2 == 0 ? Array(scenarios.indices) : scenarios.indices.reversed()
        for index in order {
            let scenario = scenarios[index]
            let run = Throughput.run(
                scenario.start, subscribers: scenario.subscribers, maxHz: scenario.maxHz,
                addresses: scenario.addresses, perDatagram: scenario.perDatagram, sets: sets, rate: 0)
            print("  [\(scenario.name), round \(round + 1)] \(Format.rate(run.appliedRate)) applied; \(run.summary)")
            runs[scenario.name, default: []].append(run)
        }
    }
    func median(_ name: String) -> Double { Statistics.median(runs[name]!.map(\.appliedRate)) }
    for name in [
        "KnobLink, 32 at 30 Hz", "KnobLink, 32 unlimited", "KnobLink, 32 at 30 Hz, 1000 addresses",
        "KnobLink, 32 at 30 Hz, bundles of 16",
    ] {
        let rate = median(name)
        report.add(
            "applied sets/s, \(name.dropFirst(10)), vs target", knobLink: Format.rate(rate),
            peer: "target \(Format.rate(targetRate))", ratio: rate / targetRate, target: 1)
    }
    for (ours, theirs) in [
        ("KnobLink, 32 unlimited", "liblo ref, 32 unlimited"), ("KnobLink, no subscriber", "liblo ref, no subscriber"),
        ("KnobLink, no subscriber, bundles of 16", "liblo ref, no subscriber, bundles of 16"),
    ] {
        report.add(
            "applied sets/s, \(ours.dropFirst(10)), vs liblo ref", knobLink: Format.rate(median(ours)),
            peer: "liblo ref \(Format.rate(median(theirs)))",
            ratio: Rounds.pairedRatio(runs[ours]!.map(\.appliedRate), runs[theirs]!.map(\.appliedRate)),
            target: nil)
    }

    // The kernel's limit for the unlimited fan-out, in the same run and with no server in between
    // (issue 14): a sendmmsg to the 32 subscriber sockets, drained by a thread, of one datagram a
    // set (no coalescing), and of the datagrams KnobLink sent: as many per set, each a bundle of as
    // many echoes.
    let unlimited = runs["KnobLink, 32 unlimited"]!
    let datagrams = Double(max(1, unlimited.map(\.result.datagrams).reduce(0, +)))
    let echoesPerDatagram = max(1, Int((Double(unlimited.map(\.result.echoes).reduce(0, +)) / datagrams).rounded()))
    let setsPerDatagram = max(
        1, Int((Double(unlimited.map(\.result.applied).reduce(0, +)) * Double(subscriberCount) / datagrams).rounded()))
    for (perDatagram, setsPer) in [(1, 1), (echoesPerDatagram, setsPerDatagram)] {
        var rates: [Double] = []
        var drained = 0
        for _ in 0..<options.rounds {
            var rate = 0.0
            precondition(
                kb_sp_kernel_fanout(Int32(subscriberCount), Int32(perDatagram), setsPer, sets, &rate, &drained) == 0,
                "kernel fan-out")
            rates.append(rate)
        }
        let kernelRate = Statistics.median(rates)
        let shape =
            perDatagram == 1
            ? "a datagram a set"
            : "as KnobLink sent: bundles of \(perDatagram) echoes, a datagram per subscriber per \(setsPer) sets"
        report.add(
            "applied sets/s, 32 unlimited, vs the kernel's sendmmsg limit (\(shape))",
            knobLink: Format.rate(median("KnobLink, 32 unlimited")),
            peer: "kernel \(Format.rate(kernelRate)) (\(drained) datagrams drained)",
            ratio: median("KnobLink, 32 unlimited") / kernelRate, target: nil)
    }
    // The server's own ceiling with this setter: the same sets with no fan-out at all.
    report.add(
        "applied sets/s, 32 unlimited, vs no subscriber (the same server and setter, no fan-out)",
        knobLink: Format.rate(median("KnobLink, 32 unlimited")),
        peer: "no subscriber \(Format.rate(median("KnobLink, no subscriber")))",
        ratio: Rounds.pairedRatio(
            runs["KnobLink, 32 unlimited"]!.map(\.appliedRate), runs["KnobLink, no subscriber"]!.map(\.appliedRate)),
        target: nil)

    // The announced capacity: 80% of the median full-speed rate; offered at that rate, every set must be
    // applied and every subscriber must end at the last value of each parameter. An unlimited subscriber
    // gets a value per set except where several sets of one address arrive in one receive batch: E5 keeps
    // only the latest of those (coalescing without a rate), so its echoes are shown, not required.
    for scenario in scenarios where scenario.subscribers > 0 {
        let capacity = (median(scenario.name) * 0.8 / 1000).rounded(.down) * 1000
        let paced = Throughput.run(
            scenario.start, subscribers: scenario.subscribers, maxHz: scenario.maxHz, addresses: scenario.addresses,
            perDatagram: scenario.perDatagram, sets: max(Int(capacity), 20_000), rate: capacity)
        let echoLoss = paced.result.stale
        var echoText = "\(echoLoss) (subscriber, parameter) pairs not at the last value"
        if scenario.maxHz == 0 {
            echoText +=
                ", \(paced.result.echoes) echoes for \(paced.result.applied * scenario.subscribers) "
                + "(set, subscriber) pairs (the rest coalesced within receive batches)"
        }
        report.add(
            "no loss at the announced capacity, \(scenario.name) (\(Format.rate(capacity)))",
            knobLink: "\(paced.lostSets) sets lost, \(echoText); \(paced.summary)", peer: "nothing lost",
            ratio: paced.lostSets == 0 && echoLoss == 0 ? 1 : 0, target: 1)
    }
    report.printMarkdown()
    print("Throughput ratios: KnobLink's applied rate over the target or liblo ref's; 1.00× in the last rows")
    print("means nothing was lost, 0.00× that something was.\n")
}

// MARK: memory

if options.only.contains("memory") {
    let report = Report(title: "Resident size, 1,000 parameters, 64 peers subscribed (a child process each)")
    let executable = CommandLine.arguments[0]
    let directory = executable.contains("/") ? String(executable[..<executable.lastIndex(of: "/")!]) : "."
    let peers = 64
    let knobLink = Memory.measure([executable, "--serve-child", "knoblink"], peers: peers, sets: 10_000)
    let liblo = Memory.measure(
        ["\(directory)/LibLORefServer", "\(BenchTree.parameterCount)"], peers: peers, sets: 10_000)
    let baseline = Memory.measure([executable, "--serve-child", "none"], peers: 0, sets: 0)
    if let knobLink, let liblo {
        report.add(
            "resident size vs target (embedded server, ServerBenchmarks --serve-child)",
            knobLink: knobLink.summary, peer: "target \(megabytes(targetMemoryKiB))",
            ratio: Double(targetMemoryKiB) / Double(knobLink.subscribedKiB), target: 1)
        report.add(
            "resident size vs liblo ref", knobLink: knobLink.summary, peer: "liblo ref \(liblo.summary)",
            ratio: Double(liblo.subscribedKiB) / Double(knobLink.subscribedKiB), target: nil)
        if let baseline {
            print("  (this binary with no server: \(megabytes(baseline.idleKiB)) resident)")
        }
        print("  embedded server, 64 peers: \(knobLink.detail)")
    }
    // The release `knoblink` binary (built in this package by Scripts/bench.sh, or given with --knoblink),
    // serving the same 1,000 parameters to the same 64 peers: what a user runs.
    let binary = options.knoblinkBinary ?? "\(directory)/knoblink"
    if access(binary, X_OK) == 0 {
        let treeFile = "/tmp/knoblink-bench-tree-\(getpid()).json"
        writeTree(to: treeFile)
        defer { unlink(treeFile) }
        let serve = Memory.measure(
            [
                binary, "serve", "--tree", treeFile, "--port", "0", "--bind", "127.0.0.1", "--feedback-port", "auto",
                "--rate-limit", "10000000", "--log-level", "error",
            ], peers: peers, sets: 10_000)
        if let serve {
            report.add(
                "resident size vs target (knoblink serve --tree, release binary)", knobLink: serve.summary,
                peer: "target \(megabytes(targetMemoryKiB))",
                ratio: Double(targetMemoryKiB) / Double(serve.subscribedKiB), target: 1)
            if let liblo {
                report.add(
                    "resident size, knoblink serve vs liblo ref", knobLink: serve.summary,
                    peer: "liblo ref \(liblo.summary)",
                    ratio: Double(liblo.subscribedKiB) / Double(serve.subscribedKiB), target: nil)
            }
            print("  knoblink serve (\(binary)), 64 peers: \(serve.detail)")
        }
    } else {
        print("  (no knoblink binary at \(binary): build it with `swift build -c release --product knoblink`)")
    }
    if let liblo {
        print("  liblo ref, 64 peers: \(liblo.detail)")
    }
    report.printMarkdown()
    print("Memory ratios: the target (or liblo ref's size) over KnobLink's (≥ 1 means KnobLink is smaller).")
}
