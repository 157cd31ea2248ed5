import Waveform

// Analyses one file and prints its own peak resident size (VmHWM of /proc/self/status): the
// process whose memory WaveformBenchmarks reports. VmHWM belongs to the address space made by
// exec, so unlike wait4's ru_maxrss it does not count the parent that spawned it. No Foundation
// here, as in a client of the Waveform module that needs none.
//
//   WaveformMemoryProbe [--pairs MODE] FILE   decode and analyse FILE at zoom 256, make 800 bars,
//                                             print "hwm KiB"; MODE is what happens to the pairs:
//                                             keep (the default), discard, dat or json (streamed
//                                             to that file next to FILE, removed afterwards)
//   WaveformMemoryProbe                       do nothing but print "hwm KiB": the process baseline
#if canImport(Glibc)
    import Glibc
#endif

/// The VmHWM line of /proc/self/status, in KiB.
func peakKiB() -> Int {
    guard let file = fopen("/proc/self/status", "r") else { return -1 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("VmHWM:") {
            return Int(text.dropFirst(6).filter { $0.isNumber }) ?? -1
        }
    }
    return -1
}

var arguments = Array(CommandLine.arguments.dropFirst())
var mode = "keep"
if arguments.count >= 2, arguments[0] == "--pairs" {
    mode = arguments[1]
    arguments.removeFirst(2)
}
if let input = arguments.first {
    do {
        let output = "\(input).probe-\(getpid()).\(mode)"
        var writer: WaveformFileWriter?
        let pairs: WaveformPairHandling
        switch mode {
        case "keep": pairs = .keep
        case "discard": pairs = .discard
        case "dat", "json":
            let made = try WaveformFileWriter(path: output, format: mode == "dat" ? .dat(version: nil) : .json)
            writer = made
            pairs = .stream(made)
        default:
            print("unknown mode '\(mode)': keep, discard, dat or json")
            exit(64)
        }
        let analysis = try AudioAnalysis(contentsOf: input, pairs: pairs)
        try writer?.finish()
        if writer != nil { unlink(output) }
        print(
            "frames \(analysis.frameCount) pairs \(analysis.waveformLength) bars \(analysis.summary.bars(count: 800).count)"
        )
    } catch {
        print(error)
        exit(1)
    }
}
print("hwm \(peakKiB())")
