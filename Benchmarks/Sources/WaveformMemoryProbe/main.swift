import Waveform

// Analyses one file and prints its own peak resident size (VmHWM of /proc/self/status): the
// process whose memory WaveformBenchmarks reports. VmHWM belongs to the address space made by
// exec, so unlike wait4's ru_maxrss it does not count the parent that spawned it. No Foundation
// here, as in a client of the Waveform module that needs none.
//
//   WaveformMemoryProbe FILE      decode and analyse FILE at zoom 256, make 800 bars, print "hwm KiB"
//   WaveformMemoryProbe           do nothing but print "hwm KiB": the baseline of the process
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

let arguments = CommandLine.arguments
if arguments.count >= 2 {
    do {
        let analysis = try AudioAnalysis(contentsOf: arguments[1])
        print(
            "frames \(analysis.frameCount) pairs \(analysis.waveform.length) bars \(analysis.summary.bars(count: 800).count)"
        )
    } catch {
        print(error)
        exit(1)
    }
}
print("hwm \(peakKiB())")
