import BenchHarness
import CBenchPeer
import OSCCore

// OSC codec and dispatch: KnobLink against liblo, in interleaved rounds (Docs/BENCHMARKS.md says
// what each side does in each scenario).

let quick = CommandLine.arguments.contains("--quick")
let rounds = Rounds(rounds: quick ? 3 : 7, runMilliseconds: quick ? 20 : 40)

// The comparison is only fair if both sides produce the same bytes.
for scenario in CodecScenario.allCases {
    let ours = scenario.makePacket().encoded()
    let theirs = scenario.libloBytes()
    precondition(ours == theirs, "KnobLink and liblo encode \(scenario.label) differently")
}

let codec = Report(title: "OSC codec, KnobLink vs liblo 0.31 (median of \(rounds.rounds) interleaved rounds)")
for scenario in CodecScenario.allCases {
    let encode = rounds.rates([scenario.encodeContender(), scenario.libloEncodeContender()])
    codec.addRates("encode \(scenario.label)", knobLink: encode[0], peerName: "liblo", peer: encode[1], target: 2)
    let decode = rounds.rates([
        scenario.viewDecodeContender(), scenario.ownedDecodeContender(), scenario.libloDecodeContender(),
    ])
    codec.addRates(
        "decode \(scenario.label), in place", knobLink: decode[0], peerName: "liblo", peer: decode[2], target: 2)
    codec.addRates(
        "decode \(scenario.label), owned", knobLink: decode[1], peerName: "liblo", peer: decode[2], target: 2)
}
codec.printMarkdown()
