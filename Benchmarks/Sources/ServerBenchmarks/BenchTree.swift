import Glibc
import Parameters

/// The tree both servers serve: group `p` with parameters `p0` … `p999` (`/p/p0` … `/p/p999`), generic
/// 0…1, so that KnobLink's normalised value is the value itself and the liblo reference's addresses
/// are the same.
enum BenchTree {
    static let parameterCount = 1_000

    static func make() -> ParameterTree {
        let parameters: [ParameterNodeSpec] = (0..<parameterCount).map { index in
            .parameter(
                ParameterSpec(
                    identifier: "p\(index)", displayName: "P\(index)", address: ParameterAddress(index),
                    minValue: 0, maxValue: 1, defaultValue: 0, unit: .generic, flags: [.readable, .writable]))
        }
        do {
            return try ParameterTree(children: [.group("p", "P", parameters)])
        } catch {
            fatalError("benchmark tree refused: \(error)")
        }
    }
}

/// Writes the benchmark tree as a tree file for `knoblink serve --tree`.
func writeTree(to path: String) {
    let text = BenchTree.make().jsonString()
    guard let file = fopen(path, "w") else { fatalError("cannot write \(path)") }
    fputs(text, file)
    fclose(file)
}
