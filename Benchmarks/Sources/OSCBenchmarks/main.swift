import BenchHarness
import CBenchPeer
import OSCCore

// OSC codec and dispatch: KnobLink against liblo, in interleaved rounds (Docs/BENCHMARKS.md says
// what each side does in each scenario).

let quick = CommandLine.arguments.contains("--quick")
var rounds = Rounds(rounds: quick ? 3 : 11, runMilliseconds: quick ? 10 : 25)
// `--iterations n` runs every contender n times, once: instruction counts under callgrind divide by n.
rounds.fixedIterations = CommandLine.arguments.firstIndex(of: "--iterations").map {
    Int(CommandLine.arguments[$0 + 1])!
}
// `--only text` runs the scenarios whose label contains `text` (for profiling one under callgrind).
let only = CommandLine.arguments.firstIndex(of: "--only").map { CommandLine.arguments[$0 + 1] }
func selected(_ label: String) -> Bool { only.map { label.contains($0) } ?? true }

// The comparison is only fair if both sides produce the same bytes.
for scenario in CodecScenario.allCases {
    let ours = scenario.makePacket().encoded()
    let theirs = scenario.libloBytes()
    precondition(ours == theirs, "KnobLink and liblo encode \(scenario.label) differently")
}

let codec = Report(title: "OSC codec, KnobLink vs liblo 0.31 (median of \(rounds.rounds) interleaved rounds)")
for scenario in CodecScenario.allCases where selected("codec \(scenario.label)") {
    let encode = rounds.samples([scenario.encodeContender(), scenario.libloEncodeContender()])
    codec.addSamples("encode \(scenario.label)", knobLink: encode[0], peerName: "liblo", peer: encode[1], target: 2)
    let decode = rounds.samples([
        scenario.viewDecodeContender(), scenario.ownedDecodeContender(), scenario.libloDecodeContender(),
        scenario.ownedValuesDecodeContender(),
    ])
    codec.addSamples(
        "decode \(scenario.label), in place", knobLink: decode[0], peerName: "liblo", peer: decode[2], target: 2)
    codec.addSamples(
        "decode \(scenario.label), owned", knobLink: decode[1], peerName: "liblo", peer: decode[2], target: 2)
    codec.addSamples(
        "decode \(scenario.label), owned, read as [OSCArgument]", knobLink: decode[3], peerName: "liblo",
        peer: decode[2], target: nil)
}
codec.printMarkdown()

let dispatch = Report(
    title: "OSC dispatch, 100 methods /knob/p0 … /knob/p99, KnobLink vs liblo 0.31 (median of \(rounds.rounds) rounds)")
let table = DispatchScenario.Table()
let contextTable = DispatchScenario.ContextTable()
let server = kb_lo_dispatch_new()!
for address in ["/knob/p50", "/knob/p99", "/knob/p1*"] where selected("dispatch \(address)") {
    let scenario = DispatchScenario(address)
    let reached = scenario.handlerCounts(table, server)
    precondition(reached.knobLink == reached.liblo, "\(address) reaches \(reached) handlers")
    let rates = rounds.samples([
        scenario.endToEnd(table), scenario.libloEndToEnd(server), scenario.dispatchOnly(table),
        scenario.decodeOnly(), scenario.libloDecodeOnly(), scenario.endToEndWithContext(contextTable),
    ])
    let label = "\(address) (\(reached.knobLink) handler\(reached.knobLink == 1 ? "" : "s"))"
    dispatch.addSamples(
        "\(label), bytes → handlers", knobLink: rates[0], peerName: "liblo", peer: rates[1], target: 5)
    // liblo cannot dispatch without deserialising: its dispatch alone is its total time less its decoding time.
    let libloDispatchOnly = zip(rates[1], rates[4]).map { total, decode in 1 / (1 / total - 1 / decode) }
    dispatch.addSamples(
        "\(label), dispatch alone", knobLink: rates[2], peerName: "liblo (total − decode)", peer: libloDispatchOnly,
        target: 5)
    dispatch.addSamples(
        "\(label), bytes → handlers with a context", knobLink: rates[5], peerName: "liblo", peer: rates[1], target: 5)
    dispatch.addSamples("\(label), decode alone", knobLink: rates[3], peerName: "liblo", peer: rates[4], target: nil)
}
kb_lo_dispatch_free(server)
dispatch.printMarkdown()
