/// The counters of a server, all owned by its event loop; `/sys/stats` sends them.
struct ServerStatistics {
    var packetsReceived = 0
    var messagesReceived = 0
    var setsApplied = 0
    var malformed = 0
    var tooDeep = 0
    var unknownAddress = 0
    var badArguments = 0
    var readOnlyRefused = 0
    var rateLimited = 0
    var disallowedPeer = 0
    var oversizedFrame = 0
    var otherProtocol = 0
    var scheduleRefused = 0
    var subscriberCap = 0
    var peerTableEvictions = 0
    var errorsSent = 0
    var errorsSuppressed = 0
    var packetsSent = 0
    var sendFailures = 0
    var deadPeers = 0
    var unreachableReports = 0
    var implicitExpired = 0
    var presetErrors = 0

    /// The counters by name, in a fixed order.
    var entries: [(name: String, value: Int)] {
        [
            ("packetsReceived", packetsReceived), ("messagesReceived", messagesReceived),
            ("setsApplied", setsApplied), ("malformed", malformed), ("tooDeep", tooDeep),
            ("unknownAddress", unknownAddress), ("badArguments", badArguments),
            ("readOnlyRefused", readOnlyRefused), ("rateLimited", rateLimited),
            ("disallowedPeer", disallowedPeer), ("oversizedFrame", oversizedFrame),
            ("otherProtocol", otherProtocol), ("scheduleRefused", scheduleRefused),
            ("subscriberCap", subscriberCap), ("peerTableEvictions", peerTableEvictions),
            ("errorsSent", errorsSent), ("errorsSuppressed", errorsSuppressed), ("packetsSent", packetsSent),
            ("sendFailures", sendFailures), ("deadPeers", deadPeers),
            ("unreachableReports", unreachableReports), ("implicitExpired", implicitExpired),
            ("presetErrors", presetErrors),
        ]
    }
}
