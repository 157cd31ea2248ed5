// Parameter set-value throughput and allocations per change (Docs/PARAMETERS.md, "Performance").
//
//   swift run -c release ParameterBenchmarks            throughput, then allocations under valgrind
//                                                       (of a copy stripped of debug information)
//   swift run -c release ParameterBenchmarks --allocations N
//                                                       (internal) N changes and exit, for valgrind
//
// Tree: 10 groups × 100 parameters (generic, 0…1). 10 observers on the tree, so every change is
// delivered 10 times. Each set alternates the value between two ends, so every set is a change.
import Dispatch
import Foundation
import Parameters
import Synchronization

let parameterCount = 1_000
let observerCount = 10

func makeTree() -> ParameterTree {
    let groups: [ParameterNodeSpec] = (0..<10).map { group in
        .group(
            "g\(group)", "Group \(group)",
            (0..<100).map { index in
                .parameter(
                    ParameterSpec(
                        identifier: "p\(index)", displayName: "P\(index)",
                        address: ParameterAddress(group * 100 + index), minValue: 0, maxValue: 1))
            })
    }
    do {
        return try ParameterTree(children: groups)
    } catch {
        fatalError("benchmark tree refused: \(error)")
    }
}

/// Keeps the optimiser from removing the observers' work.
@inline(never)
func sink(_ change: ParameterChange) {
    if change.value.isNaN { print("NaN delivered") }
}

func addObservers(_ tree: ParameterTree) {
    for _ in 0..<observerCount { _ = tree.token { change in sink(change) } }
}

/// Sets `rounds` sweeps over `parameters`, alternating 0.25 and 0.75.
@inline(never)
func sweep(_ parameters: ArraySlice<Parameter>, rounds: Int) -> Int {
    var changes = 0
    for round in 0..<rounds {
        let value: ParameterValue = round & 1 == 0 ? 0.75 : 0.25
        for parameter in parameters where parameter.setValue(value).changed { changes += 1 }
    }
    return changes
}

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// Checks once, with counting observers, that every set is a change and reaches every observer.
func verifyDelivery() {
    let tree = makeTree()
    let delivered = Atomic<Int>(0)
    for _ in 0..<observerCount { _ = tree.token { _ in delivered.add(1, ordering: .relaxed) } }
    let changes = sweep(tree.allParameters[...], rounds: 4)
    let expected = 4 * parameterCount
    guard changes == expected, delivered.load(ordering: .relaxed) == expected * observerCount else {
        fatalError("delivery check failed: \(changes) changes, \(delivered.load(ordering: .relaxed)) deliveries")
    }
}

func singleThread(rounds: Int) -> Double {
    let tree = makeTree()
    addObservers(tree)
    _ = sweep(tree.allParameters[...], rounds: 10)
    var rates: [Double] = []
    for _ in 0..<5 {
        var changes = 0
        let elapsed = seconds { changes = sweep(tree.allParameters[...], rounds: rounds) }
        rates.append(Double(changes) / elapsed)
    }
    return median(rates)
}

func twoThreads(rounds: Int) -> Double {
    let tree = makeTree()
    addObservers(tree)
    let all = tree.allParameters
    let halves = [all[0..<parameterCount / 2], all[parameterCount / 2..<parameterCount]]
    var rates: [Double] = []
    for _ in 0..<5 {
        let total = Atomic<Int>(0)
        let elapsed = seconds {
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                total.add(sweep(halves[thread], rounds: rounds), ordering: .relaxed)
            }
        }
        rates.append(Double(total.load(ordering: .relaxed)) / elapsed)
    }
    return median(rates)
}

/// The shape of a control surface with the server: one observer per parameter (a knob) and one on
/// the tree (the server), so every change reaches two observers.
func knobsAndServer(rounds: Int) -> Double {
    let tree = makeTree()
    for parameter in tree.allParameters { _ = parameter.token { change in sink(change) } }
    _ = tree.token { change in sink(change) }
    _ = sweep(tree.allParameters[...], rounds: 10)
    var rates: [Double] = []
    for _ in 0..<5 {
        var changes = 0
        let elapsed = seconds { changes = sweep(tree.allParameters[...], rounds: rounds) }
        rates.append(Double(changes) / elapsed)
    }
    return median(rates)
}

/// Runs `changes` changes after a warm-up and exits: valgrind's heap summary of two such runs
/// with different counts gives the allocations per change.
func allocationRun(changes: Int) {
    let tree = makeTree()
    addObservers(tree)
    _ = sweep(tree.allParameters[...], rounds: 2)
    _ = sweep(tree.allParameters[...], rounds: changes / parameterCount)
}

/// Runs a program and returns its standard error, or `nil` if it cannot start.
func standardError(of program: String, _ arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return output
}

/// A copy of this executable without debug information: valgrind 3.19 gives up on the DWARF
/// that some Swift builds emit ("Possibly corrupted debuginfo file"), and counting needs none.
func strippedCopy() -> String? {
    guard let executable = Bundle.main.executablePath else { return nil }
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent("ParameterBenchmarks-\(getpid())").path
    try? FileManager.default.removeItem(atPath: copy)
    do { try FileManager.default.copyItem(atPath: executable, toPath: copy) } catch { return nil }
    guard standardError(of: "/usr/bin/strip", ["--strip-debug", copy]) != nil else { return nil }
    return copy
}

/// The heap allocations valgrind counts for a run with `changes` changes.
func heapAllocations(of program: String, changes: Int) -> Int? {
    let arguments = ["--tool=memcheck", "--leak-check=no", program, "--allocations", String(changes)]
    guard let output = standardError(of: "/usr/bin/valgrind", arguments) else { return nil }
    // "total heap usage: 1,234 allocs, 1,200 frees, 56,789 bytes allocated"
    guard let line = output.split(separator: "\n").first(where: { $0.contains("total heap usage:") }),
        let range = line.range(of: "usage: "), let end = line.range(of: " allocs")
    else { return nil }
    return Int(line[range.upperBound..<end.lowerBound].replacingOccurrences(of: ",", with: ""))
}

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "--allocations", let changes = Int(arguments[2]) {
    allocationRun(changes: changes)
    exit(0)
}

verifyDelivery()
print("Parameters: \(parameterCount) parameters, \(observerCount) tree observers, every set a change")
let one = singleThread(rounds: 2_000)
print(String(format: "  one thread:  %6.2f M changes/s  (%5.1f ns/change)", one / 1e6, 1e9 / one))
let two = twoThreads(rounds: 1_000)
print(
    String(format: "  two threads: %6.2f M changes/s  (%5.1f ns/change, both threads together)", two / 1e6, 1e9 / two))
let knobs = knobsAndServer(rounds: 2_000)
print(
    String(
        format: "  one thread, an observer per parameter + 1 on the tree: %6.2f M changes/s (%5.1f ns/change)",
        knobs / 1e6, 1e9 / knobs))
let small = 10_000
let large = 110_000
if FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind"), let program = strippedCopy() {
    defer { try? FileManager.default.removeItem(atPath: program) }
    if let base = heapAllocations(of: program, changes: small),
        let more = heapAllocations(of: program, changes: large)
    {
        let perChange = Double(more - base) / Double(large - small)
        print(
            String(
                format: "  allocations: %.4f per change (valgrind: %d allocs for %d changes, %d for %d)", perChange,
                base, small, more, large))
    } else {
        print("  allocations: not measured (valgrind printed no heap summary)")
    }
} else {
    print("  allocations: not measured (needs /usr/bin/valgrind and /usr/bin/strip)")
}
