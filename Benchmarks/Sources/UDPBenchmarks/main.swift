import BenchHarness
import CBenchPeer

// UDP loopback: KnobLink's UDP client and server against liblo and the raw socket (the limit).
// Rounds are interleaved (every contender once per round, order alternating); figures are medians over
// rounds and ratios are medians of the ratios within each round (wall-clock figures drift with the load).

// `--datagrams n` and `--round-trips n` shrink the runs (for callgrind); the defaults are the reported ones.
func option(_ name: String, default value: Int) -> Int {
    CommandLine.arguments.firstIndex(of: name).map { Int(CommandLine.arguments[$0 + 1])! } ?? value
}
let datagrams = option("--datagrams", default: 200_000)
let roundTrips = option("--round-trips", default: 20_000)
let throughputRounds = CommandLine.arguments.contains("--quick") ? 1 : 5
let latencyRounds = CommandLine.arguments.contains("--quick") ? 1 : 5

var throughput: [String: [ThroughputResult]] = [:]
let throughputContenders: [(String, () -> ThroughputResult)] = [
    ("KnobLink", { KnobLinkUDP.throughput(count: datagrams) }),
    ("liblo", { ThroughputResult(kb_lo_udp_throughput(datagrams)) }),
    ("raw sendto/recvfrom", { ThroughputResult(kb_raw_udp_throughput(datagrams, 0)) }),
    ("raw sendmmsg/recvmmsg", { ThroughputResult(kb_raw_udp_throughput(datagrams, 1)) }),
]
for round in 0..<throughputRounds {
    let order = round % 2 == 0 ? Array(throughputContenders.indices) : throughputContenders.indices.reversed()
    for index in order {
        let (name, run) = throughputContenders[index]
        let switches = kb_context_switches()
        var result = run()
        result.switchesPerDatagram = Double(kb_context_switches() - switches) / Double(datagrams)
        throughput[name, default: []].append(result)
    }
}

func medianThroughput(_ runs: [ThroughputResult]) -> ThroughputResult {
    let results = runs.sorted { $0.rate < $1.rate }
    var result = results[results.count / 2]
    let middle = results[results.count / 2]
    result.sent = results.map(\.sent).reduce(0, +)
    result.received = results.map(\.received).reduce(0, +)
    // Loss is summed over rounds; the rates are the median round's.
    result.elapsedNanoseconds = UInt64(Double(result.received) * 1e9 / middle.rate)
    result.sendNanoseconds = UInt64(Double(result.sent) * 1e9 / middle.sendRate)
    return result
}

let udp = Report(title: "UDP loopback, \(datagrams) datagrams of /knob/gain ,f 0.5 (\(throughputRounds) rounds)")
let knobLinkThroughput = medianThroughput(throughput["KnobLink"]!)
func lossText(_ result: ThroughputResult) -> String {
    "\(result.lost) lost of \(result.sent); sender \(Format.rate(result.sendRate)); "
        + "\(Format.fixed(result.switchesPerDatagram, decimals: 2)) switches/datagram"
}
let throughputPeers: [(String, Double?)] = [
    ("raw sendto/recvfrom", 0.9), ("raw sendmmsg/recvmmsg", nil), ("liblo", nil),
]
for (peer, target) in throughputPeers {
    let other = medianThroughput(throughput[peer]!)
    udp.add(
        "throughput vs \(peer)",
        knobLink: "\(Format.rate(knobLinkThroughput.rate)) (\(lossText(knobLinkThroughput)))",
        peer: "\(peer) \(Format.rate(other.rate)) (\(lossText(other)))",
        ratio: Rounds.pairedRatio(throughput["KnobLink"]!.map(\.rate), throughput[peer]!.map(\.rate)),
        target: target)
}

let rtt = Report(title: "UDP round trip, \(roundTrips) ping-pongs of /knob/gain ,f 0.5 (\(latencyRounds) rounds)")
var samples = [UInt64](repeating: 0, count: roundTrips)
for placement in Placement.allCases {
    placement.applyToProcess()
    var results: [String: [LatencyResult]] = [:]
    let contenders: [(String, () -> LatencyResult)] = [
        ("KnobLink", { KnobLinkUDP.roundTrips(count: roundTrips, placement: placement, style: .handlerDriven) }),
        (
            "KnobLink, blocking receive",
            { KnobLinkUDP.roundTrips(count: roundTrips, placement: placement, style: .blockingReceive) }
        ),
        (
            "liblo",
            {
                var cpus: [Int32] = [0, 0]
                let status = kb_lo_udp_rtt(roundTrips, &samples, placement.apart, &cpus)
                precondition(status == 0, "liblo round trip failed")
                return LatencyResult(samples: samples, clientCPU: cpus[0], echoCPU: cpus[1])
            }
        ),
        (
            "raw",
            {
                var cpus: [Int32] = [0, 0]
                let status = kb_raw_udp_rtt(roundTrips, &samples, placement.apart, &cpus)
                precondition(status == 0, "raw round trip failed")
                return LatencyResult(samples: samples, clientCPU: cpus[0], echoCPU: cpus[1])
            }
        ),
    ]
    for round in 0..<latencyRounds {
        let order = round % 2 == 0 ? Array(contenders.indices) : contenders.indices.reversed()
        for index in order {
            let switches = kb_context_switches()
            var result = contenders[index].1()
            // The 1000 warm-up trips are inside the count too.
            result.switchesPerTrip = Double(kb_context_switches() - switches) / Double(roundTrips + 1000)
            results[contenders[index].0, default: []].append(result)
        }
    }
    let rows: [(String, String, Double?)] = [
        ("KnobLink", "raw", 1 / 1.2), ("KnobLink", "liblo", nil), ("KnobLink, blocking receive", "raw", 1 / 1.2),
    ]
    for (ours, peer, target) in rows {
        let knobLink = LatencyResult.median(results[ours]!)
        let other = LatencyResult.median(results[peer]!)
        let style = ours == "KnobLink" ? "" : " (\(ours.dropFirst(10)))"
        rtt.add(
            "RTT p50, \(placement.label), vs \(peer)\(style)",
            knobLink: "\(knobLink.summary) [CPUs \(knobLink.clientCPU)/\(knobLink.echoCPU)]",
            peer: "\(peer) \(other.summary) [CPUs \(other.clientCPU)/\(other.echoCPU)]",
            ratio: Rounds.pairedRatio(results[peer]!.map { Double($0.p50) }, results[ours]!.map { Double($0.p50) }),
            target: target)
    }
}
Placement.twoCPUs.applyToProcess()

udp.printMarkdown()
rtt.printMarkdown()
print("Ratios: KnobLink over the peer for throughput, the peer's p50 over KnobLink's for round trips (larger is")
print("better for KnobLink; ≥ 0.83× means KnobLink's p50 is within 20% of the raw socket's).")
