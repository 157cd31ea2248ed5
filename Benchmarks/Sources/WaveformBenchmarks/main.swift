// Waveform min/max throughput and memory (Docs/BENCHMARKS.md, "Waveform"; Docs/WAVEFORM.md, "Performance").
//
//   swift run -c release WaveformBenchmarks [--rounds N]   the comparison, then the peak memory of
//                                                            WaveformMemoryProbe on each input
//   WaveformBenchmarks --wav-only [--rounds N]               the WAV comparison alone, then memory
//   WaveformBenchmarks --kernel                              the analysis alone on samples in memory
//   WaveformBenchmarks --knoblink PATH --loop PATH           also `knoblink waveform` as a whole process
//                                                            against the C loop as one (at least 21 rounds)
//   WaveformBenchmarks --wav-only --no-memory --knoblink ... that row and the WAV rows alone
//   WaveformBenchmarks --as-written ...                      the inputs as the page cache holds them,
//                                                            not dropped and read once first (see below)
//
// Input: a 10-minute stereo 44.1 kHz 16-bit WAV of a test signal, and its FLAC and MP3 encodings,
// all written by libsndfile once into Benchmarks/.build/waveform-cache (plus 60-minute and 3-hour
// WAVs for memory). Each round runs KnobLink's AudioAnalysis (zoom 256, channels mixed, pairs
// kept), the plain C loop of audiowaveform's algorithm over sf_readf_short (-O2) and the decoder
// alone, in alternating order, each on the calling thread and timed in that thread's CPU time; the
// figures are medians. On the WAV the analysis also runs with its pairs discarded, streamed to a
// .dat file, and streamed without the summary (`summary: false`, what `knoblink waveform -o X.dat`
// does). Memory is measured in a child process for each input and each pair handling.
import BenchHarness
import CWaveformReference
import Foundation
import Waveform

let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "--kernel" {
    // The analysis alone on 10 minutes of stereo already in memory: no decoding, no I/O.
    var generator: UInt64 = 1
    let samples = (0..<(26_460_000 * 2)).map { _ -> Int16 in
        generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int16(truncatingIfNeeded: generator >> 40)
    }
    for channels in [2, 1] {
        for _ in 0..<3 {
            let seconds = cpuSeconds {
                var analyzer = AudioAnalyzer(sampleRate: 44_100, channels: channels)
                samples.withUnsafeBufferPointer { all in
                    var start = 0
                    while start < all.count {
                        let end = min(all.count, start + 32_768)
                        analyzer.consume(interleaved: UnsafeBufferPointer(rebasing: all[start..<end]))
                        start = end
                    }
                }
                blackHole(analyzer.finish())
            }
            let cachedLarge = cpuSeconds {
                var analyzer = AudioAnalyzer(
                    sampleRate: 44_100, channels: channels, options: WaveformOptions(zoom: 1 << 20))
                samples.withUnsafeBufferPointer { all in
                    for _ in 0..<(all.count / 32_768) {
                        analyzer.consume(interleaved: UnsafeBufferPointer(rebasing: all[0..<32_768]))
                    }
                }
                blackHole(analyzer.finish())
            }
            print("kernel, cached, zoom 2^20, \(channels) channel(s): \(milliseconds(cachedLarge))")
            let cached = cpuSeconds {
                var analyzer = AudioAnalyzer(sampleRate: 44_100, channels: channels)
                samples.withUnsafeBufferPointer { all in
                    // The same 64 KB again and again: the analysis of data already in cache.
                    for _ in 0..<(all.count / 32_768) {
                        analyzer.consume(interleaved: UnsafeBufferPointer(rebasing: all[0..<32_768]))
                    }
                }
                blackHole(analyzer.finish())
            }
            print("kernel, cached, \(channels) channel(s): \(milliseconds(cached))")
            print(
                "kernel, \(channels) channel(s): \(milliseconds(seconds)), \(Format.fixed(Double(samples.count * 2) / 1e9 / seconds, decimals: 2)) GB/s"
            )
        }
    }
    exit(0)
}
var rounds = 7
if let index = arguments.firstIndex(of: "--rounds"), index + 1 < arguments.count, let value = Int(arguments[index + 1])
{
    rounds = max(1, value)
}

let cache = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".build/waveform-cache")
try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)

/// The cached input `name`, written by libsndfile if it is not there yet.
func input(_ name: String, format: Int32, minutes: Int) -> String {
    let path = cache.appendingPathComponent(name).path
    if FileManager.default.fileExists(atPath: path) { return path }
    print("(writing \(name), \(minutes) min, once)")
    var error = [CChar](repeating: 0, count: 256)
    let partial = path + ".partial"
    guard kb_wf_generate(partial, format, Int32(minutes * 60), &error) == 0 else {
        let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        fatalError("cannot write \(name): \(reason)")
    }
    try! FileManager.default.moveItem(atPath: partial, toPath: path)
    return path
}

/// Drops `path` from the page cache and reads it once in 1 MiB reads, so that it is cached as a
/// file read from disk is (the kernel's readahead, in large folios), not as the process that wrote
/// it left it (its writes' folios, small). Mapping a file costs page-table work per folio, so the
/// in-place WAV reader is slower on a file just written: 0.79–0.90× of the decoder alone and
/// 3.86–4.14× the C loop as whole processes, against 1.08–1.25× and 5.25–5.75× (session 16,
/// Docs/BENCHMARKS.md). Every contender reads the file in the same state.
func cacheAsReadFromDisk(_ path: String) {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 4096)
    defer { buffer.deallocate() }
    while read(descriptor, buffer, 1 << 20) > 0 {}
}

let asWritten = arguments.contains("--as-written")
/// `path`, cached as read from disk unless `--as-written` is given.
func prepared(_ path: String) -> String {
    if !asWritten { cacheAsReadFromDisk(path) }
    return path
}
let wav = prepared(input("ten-minutes.wav", format: kb_wf_format_wav16(), minutes: 10))
let flac = prepared(input("ten-minutes.flac", format: kb_wf_format_flac16(), minutes: 10))
let mp3 = prepared(input("ten-minutes.mp3", format: kb_wf_format_mp3(), minutes: 10))
let hour = input("sixty-minutes.wav", format: kb_wf_format_wav16(), minutes: 60)
let threeHours: String = {
    let start = cpuNanoseconds()
    let path = input("three-hours.wav", format: kb_wf_format_wav16(), minutes: 180)
    let seconds = Double(cpuNanoseconds() - start) / 1e9
    if seconds > 0.5 { print("(three-hours.wav took \(Format.fixed(seconds, decimals: 1)) s of CPU to write)") }
    return path
}()

func cpuSeconds(_ body: () -> Void) -> Double {
    let start = cpuNanoseconds()
    body()
    return Double(cpuNanoseconds() - start) / 1e9
}

/// KnobLink's pairs must be the C loop's before any time counts.
func checkAgreement(_ path: String) {
    let analysis = try! AudioAnalysis(contentsOf: path)
    var pairs = [Int16](repeating: 0, count: analysis.waveform.samples.count + 2)
    let count = kb_wf_reference_minmax(path, 256, &pairs, pairs.count / 2)
    guard count == analysis.waveform.length, Array(pairs.prefix(2 * count)) == analysis.waveform.samples else {
        let first = zip(pairs, analysis.waveform.samples).enumerated().first { $0.element.0 != $0.element.1 }
        fatalError(
            "KnobLink and the C loop disagree on \(path): \(count) and \(analysis.waveform.length) pairs,"
                + " first difference \(String(describing: first))")
    }
}

struct Timing {
    var knobLink: [Double] = []
    var reference: [Double] = []
    var decoder: [Double] = []
    /// The analysis with its pairs discarded, and streamed to a .dat file (WAV only).
    var discarding: [Double] = []
    var streaming: [Double] = []
    /// Streamed to a .dat file without the summary, as `knoblink waveform -o FILE.dat` does.
    var streamingAlone: [Double] = []
}

func measure(_ path: String, rounds: Int, everyHandling: Bool) -> (timing: Timing, frames: Int) {
    checkAgreement(path)
    let frames = Int(kb_wf_decode_only(path))
    let datOutput = cache.appendingPathComponent("benchmark-output.dat").path
    var timing = Timing()
    for round in 0..<rounds {
        var runs: [() -> Void] = [
            { timing.knobLink.append(cpuSeconds { blackHole(try! AudioAnalysis(contentsOf: path)) }) },
            { timing.reference.append(cpuSeconds { blackHole(kb_wf_reference_minmax(path, 256, nil, 0)) }) },
            { timing.decoder.append(cpuSeconds { blackHole(kb_wf_decode_only(path)) }) },
        ]
        if everyHandling {
            runs.append {
                timing.discarding.append(
                    cpuSeconds { blackHole(try! AudioAnalysis(contentsOf: path, pairs: .discard)) })
            }
            runs.append {
                timing.streaming.append(
                    cpuSeconds {
                        let writer = try! WaveformFileWriter(path: datOutput, format: .dat(version: nil))
                        blackHole(try! AudioAnalysis(contentsOf: path, pairs: .stream(writer)))
                        try! writer.finish()
                    })
            }
            runs.append {
                timing.streamingAlone.append(
                    cpuSeconds {
                        let writer = try! WaveformFileWriter(path: datOutput, format: .dat(version: nil))
                        blackHole(try! AudioAnalysis(contentsOf: path, pairs: .stream(writer), summary: false))
                        try! writer.finish()
                    })
            }
        }
        if round % 2 == 1 { runs.reverse() }
        for run in runs { run() }
    }
    return (timing, frames)
}

func megabytesPerSecond(frames: Int, seconds: Double) -> String {
    "\(Format.fixed(Double(frames * 4) / 1e6 / seconds, decimals: 0)) MB/s"
}

func milliseconds(_ seconds: Double) -> String {
    "\(Format.fixed(seconds * 1000, decimals: 1)) ms"
}

let report = Report(title: "Waveform min/max, zoom 256, 10-minute stereo 44.1 kHz (\(rounds) rounds, CPU time)")
let wavOnly = arguments.contains("--wav-only")
for (name, path) in wavOnly ? [("WAV", wav)] : [("WAV", wav), ("FLAC", flac), ("MP3", mp3)] {
    let (timing, frames) = measure(path, rounds: rounds, everyHandling: name == "WAV")
    let knobLink = Statistics.median(timing.knobLink)
    let reference = Statistics.median(timing.reference)
    let decoder = Statistics.median(timing.decoder)
    let versusC = Statistics.median(zip(timing.reference, timing.knobLink).map { $0 / $1 })
    let versusDecoder = Statistics.median(zip(timing.decoder, timing.knobLink).map { $0 / $1 })
    print(
        "  \(name): KnobLink \(milliseconds(knobLink)) (\(megabytesPerSecond(frames: frames, seconds: knobLink)) of PCM),"
            + " C loop \(milliseconds(reference)) (\(megabytesPerSecond(frames: frames, seconds: reference))),"
            + " decoder alone \(milliseconds(decoder)) (\(megabytesPerSecond(frames: frames, seconds: decoder)))")
    report.add(
        "\(name) vs the C loop", knobLink: milliseconds(knobLink), peer: "C loop \(milliseconds(reference))",
        ratio: versusC, target: name == "WAV" ? 3 : nil)
    report.add(
        "\(name) vs the decoder alone", knobLink: milliseconds(knobLink),
        peer: "sf_readf_short loop \(milliseconds(decoder))", ratio: versusDecoder, target: name == "WAV" ? nil : 0.9)
    let handlings = [
        ("pairs discarded", timing.discarding), ("pairs streamed to .dat", timing.streaming),
        ("pairs alone, no summary, streamed to .dat", timing.streamingAlone),
    ]
    for (handling, times) in handlings where !times.isEmpty {
        let ratio = Statistics.median(zip(timing.reference, times).map { $0 / $1 })
        print("  \(name), \(handling): KnobLink \(milliseconds(Statistics.median(times)))")
        report.add(
            "\(name) (\(handling)) vs the C loop", knobLink: milliseconds(Statistics.median(times)),
            peer: "C loop \(milliseconds(reference))", ratio: ratio, target: 3)
    }
}

/// A child process run to its end: its wall time, its CPU time (user and system, from `wait4`)
/// and its exit status. Standard output and error go to /dev/null.
func runProcess(_ argv: [String]) -> (wall: Double, cpu: Double, status: Int32) {
    let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    let start = nowNanoseconds()
    guard posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ) == 0 else {
        fatalError("cannot start \(argv[0])")
    }
    var status: Int32 = 0
    var usage = rusage()
    guard wait4(pid, &status, 0, &usage) == pid else { fatalError("wait4 failed for \(argv[0])") }
    let wall = Double(nowNanoseconds() - start) / 1e9
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return (wall, seconds(usage.ru_utime) + seconds(usage.ru_stime), status)
}

/// `knoblink waveform WAV -o FILE.dat` as a whole process against the C loop as a whole process
/// (`loop`: waveform/loop_process.c, built by Scripts/bench.sh), both writing audiowaveform's .dat of the 10-minute
/// WAV at zoom 256; then each program's start alone (`knoblink --version`, the C loop's usage).
/// The two files must be the same bytes before any time counts. Rounds alternate the order.
@MainActor func measureProcesses(knoblink: String, loop: String, wav: String, rounds: Int) {
    let ours = cache.appendingPathComponent("process-knoblink.dat").path
    let theirs = cache.appendingPathComponent("process-loop.dat").path
    let knobLinkRun = [knoblink, "waveform", wav, "-o", ours]
    let loopRun = [loop, wav, theirs, "256"]
    for run in [knobLinkRun, loopRun] where runProcess(run).status != 0 {
        fatalError("\(run.joined(separator: " ")) failed")
    }
    guard let a = FileManager.default.contents(atPath: ours), let b = FileManager.default.contents(atPath: theirs),
        a == b
    else { fatalError("knoblink waveform and the C loop wrote different .dat files (\(ours), \(theirs))") }
    print("\n  whole processes, \(rounds) rounds (the two .dat files are the same \(a.count) bytes):")
    var wall: [[Double]] = [[], [], [], []]
    var cpu: [[Double]] = [[], [], [], []]
    let runs = [knobLinkRun, loopRun, [knoblink, "--version"], [loop]]
    for round in 0..<rounds {
        let order = round % 2 == 0 ? Array(0..<4) : Array((0..<4).reversed())
        for index in order {
            let result = runProcess(runs[index])
            wall[index].append(result.wall)
            cpu[index].append(result.cpu)
        }
    }
    let ratios = zip(wall[1], wall[0]).map { $0 / $1 }.sorted()
    let ratio = Statistics.median(ratios)
    print(
        "    knoblink waveform \(milliseconds(Statistics.median(wall[0]))) wall (\(milliseconds(Statistics.median(cpu[0]))) CPU),"
            + " C loop \(milliseconds(Statistics.median(wall[1]))) wall (\(milliseconds(Statistics.median(cpu[1]))) CPU):"
            + " \(Format.fixed(ratio, decimals: 2))× (rounds \(Format.fixed(ratios.first!, decimals: 2))–\(Format.fixed(ratios.last!, decimals: 2))×)"
    )
    print(
        "    start alone: knoblink --version \(milliseconds(Statistics.median(wall[2]))) wall"
            + " (\(milliseconds(Statistics.median(cpu[2]))) CPU), the C loop's usage"
            + " \(milliseconds(Statistics.median(wall[3]))) wall (\(milliseconds(Statistics.median(cpu[3]))) CPU)")
    report.add(
        "WAV, `knoblink waveform` vs the C loop, whole processes (wall)",
        knobLink: milliseconds(Statistics.median(wall[0])), peer: "C loop \(milliseconds(Statistics.median(wall[1])))",
        ratio: ratio, target: 3.5)
}

/// The peak resident size WaveformMemoryProbe (next to this program) reports after running with `mode`.
func peakKiB(_ mode: [String]) -> Int? {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("WaveformMemoryProbe").path
    let output = cache.appendingPathComponent("probe-output.txt").path
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + mode).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    defer { posix_spawn_file_actions_destroy(&actions) }
    guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    guard waitpid(pid, &status, 0) == pid, status == 0, let text = try? String(contentsOfFile: output, encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("hwm ") })
    else { return nil }
    return Int(line.dropFirst(4))
}

func mebibytes(_ kib: Int?) -> String {
    kib.map { "\(Format.fixed(Double($0) / 1024, decimals: 1)) MiB" } ?? "failed"
}

/// The value after `option` on the command line.
func argument(after option: String) -> String? {
    arguments.firstIndex(of: option).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
if let knoblink = argument(after: "--knoblink") {
    guard let loop = argument(after: "--loop") else { fatalError("--knoblink needs --loop PATH (Scripts/bench.sh)") }
    measureProcesses(knoblink: knoblink, loop: loop, wav: wav, rounds: max(rounds, 21))
}
if arguments.contains("--no-memory") {
    report.printMarkdown()
    exit(0)
}

print("\n  peak resident memory of a child process (its own VmHWM), by what happens to the pairs:")
let baseline = peakKiB([])
print("    WaveformMemoryProbe doing nothing (Swift runtime, libsndfile): \(mebibytes(baseline))")
let inputs = [
    ("10-minute WAV", wav), ("10-minute FLAC", flac), ("10-minute MP3", mp3), ("60-minute WAV", hour),
    ("3-hour WAV", threeHours),
]
for (name, path) in inputs {
    var line = "    \(name):"
    for mode in ["keep", "discard", "dat", "json"] {
        let peak = peakKiB(["--pairs", mode, path])
        // 20 MB is 20 000 000 bytes, 19.07 MiB.
        let verdict = peak.map { $0 * 1024 < 20_000_000 ? "met" : "MISSED" } ?? ""
        line += " \(mode) \(mebibytes(peak)) (\(verdict))"
    }
    print(line)
}
report.printMarkdown()
