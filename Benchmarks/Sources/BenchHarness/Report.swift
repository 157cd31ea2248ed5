/// Collects the comparisons of a run and prints them as they come and as a Markdown table at the end.
public final class Report {
    /// One line of the report: a scenario, KnobLink's figure, the peer's figure and the target ratio.
    public struct Row {
        /// What was measured.
        public var scenario: String
        /// KnobLink's figure, already formatted.
        public var knobLink: String
        /// The peer's name and figure, already formatted.
        public var peer: String
        /// KnobLink's figure over the peer's, oriented so that larger is better for KnobLink.
        public var ratio: Double
        /// The ratio the project aims for, or `nil` when the line is informative only.
        public var target: Double?
    }

    /// The rows added so far, in order.
    private(set) public var rows: [Row] = []
    private let title: String

    /// Creates a report printed under `title`.
    public init(title: String) {
        self.title = title
        print("== \(title)")
    }

    /// Adds and prints a row.
    public func add(_ scenario: String, knobLink: String, peer: String, ratio: Double, target: Double?) {
        let row = Row(scenario: scenario, knobLink: knobLink, peer: peer, ratio: ratio, target: target)
        rows.append(row)
        print("  \(scenario): KnobLink \(knobLink) | \(peer) | ratio \(Format.ratio(ratio))\(Self.verdict(row))")
    }

    /// Adds a row comparing two contenders' per-round rates: their medians, and the median of the
    /// per-round ratios.
    public func addSamples(
        _ scenario: String, knobLink: [Double], peerName: String, peer: [Double], target: Double?
    ) {
        add(
            scenario, knobLink: Format.rate(Statistics.median(knobLink)),
            peer: "\(peerName) \(Format.rate(Statistics.median(peer)))", ratio: Rounds.pairedRatio(knobLink, peer),
            target: target)
    }

    /// Adds a row comparing two rates (operations per second).
    public func addRates(_ scenario: String, knobLink: Double, peerName: String, peer: Double, target: Double?) {
        add(
            scenario, knobLink: Format.rate(knobLink), peer: "\(peerName) \(Format.rate(peer))",
            ratio: knobLink / peer, target: target)
    }

    /// Prints the rows as a Markdown table, the form Docs/BENCHMARKS.md uses.
    public func printMarkdown() {
        print("\n### \(title)\n")
        print("| scenario | KnobLink | peer | ratio | target |")
        print("|---|---|---|---|---|")
        for row in rows {
            let target =
                row.target.map { "≥ \(Format.ratio($0))" + (row.ratio >= $0 ? " met" : " **missed**") } ?? "—"
            print("| \(row.scenario) | \(row.knobLink) | \(row.peer) | \(Format.ratio(row.ratio)) | \(target) |")
        }
        print("")
    }

    private static func verdict(_ row: Row) -> String {
        guard let target = row.target else { return "" }
        return " (target ≥ \(Format.ratio(target)): \(row.ratio >= target ? "met" : "MISSED"))"
    }
}
