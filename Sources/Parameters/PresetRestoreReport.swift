/// What restoring a preset did: the entries applied and those that were not.
public struct PresetRestoreReport: Sendable, Hashable {
    /// Key paths of the entries applied, in the tree's order.
    public var applied: [String]
    /// The entries not applied, sorted by key path.
    public var issues: [PresetIssue]

    /// Creates a report.
    public init(applied: [String] = [], issues: [PresetIssue] = []) {
        self.applied = applied
        self.issues = issues
    }

    /// Whether every entry was applied.
    public var isComplete: Bool { issues.isEmpty }
}
