/// What the links did, for `/sys/stats`.
public struct LinkStatistics: Sendable, Hashable {
    /// Link bundles received and read.
    public var bundlesReceived = 0
    /// Link bundles dropped because their hop list already named this instance.
    public var loopsDropped = 0
    /// Datagrams that looked like link bundles but could not be read (or came from no allowed peer).
    public var malformed = 0
    /// Values applied that changed a parameter.
    public var valuesApplied = 0
    /// Values not applied because the parameter already had them (convergence).
    public var valuesConverged = 0
    /// Values for addresses this tree does not have, or for read-only parameters, or not numbers.
    public var valuesRefused = 0
    /// Link bundles sent (datagrams).
    public var bundlesSent = 0
    /// Sends over a link that failed.
    public var sendFailures = 0
    /// `/sys/link` announcements sent.
    public var announcementsSent = 0
    /// Links refused because `--max-links` were there already.
    public var refused = 0
    /// `/sys/link` urls refused because their address is outside the server's `--allow` list.
    public var disallowed = 0
    /// Links a peer asked for, removed after their far side could not be reached
    /// ``LinkManager/pruneAfterFailures`` times in a row.
    public var pruned = 0

    /// The counters by name, prefixed `link`.
    public var entries: [(name: String, value: Int)] {
        [
            ("linkBundlesReceived", bundlesReceived), ("linkLoopsDropped", loopsDropped),
            ("linkMalformed", malformed), ("linkValuesApplied", valuesApplied),
            ("linkValuesConverged", valuesConverged), ("linkValuesRefused", valuesRefused),
            ("linkBundlesSent", bundlesSent), ("linkSendFailures", sendFailures),
            ("linkAnnouncementsSent", announcementsSent), ("linksRefused", refused),
            ("linksDisallowed", disallowed), ("linksPruned", pruned),
        ]
    }
}
