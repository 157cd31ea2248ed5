/// What a bar height of 1 stands for.
public enum BarNormalization: String, Sendable, Hashable, CaseIterable {
    /// The loudest bar is 1 and the others are scaled with it (the default, as in PROTOCOL.md §5).
    ///
    /// A silent source keeps all bars at 0 rather than dividing by zero.
    case loudest
    /// Full scale is 1: bars keep their absolute level (`--no-normalize`, subscription flag 2).
    case fullScale
}
