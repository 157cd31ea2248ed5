/// The counters of a server, all owned by its event loop; `/sys/stats` sends them.
struct ServerStatistics {
    var packetsReceived = 0
    /// Connections that spoke HTTP, requests answered, refused requests (400, 413, 431, 505),
    /// requests that took too long (408), connections closed for idling between requests.
    var httpConnections = 0
    var httpRequests = 0
    var httpBadRequests = 0
    var httpTimeouts = 0
    var httpIdleClosed = 0
    /// WebSocket upgrades, connections closed for a protocol error, and text commands that
    /// were not JSON, not a known command, or named no path of the tree.
    var webSocketsOpened = 0
    var webSocketErrors = 0
    var webSocketBadCommands = 0
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
    /// Preset saves refused by the ``PresetLimits`` (also counted in `presetErrors`).
    var presetLimited = 0
    /// Urls refused because their address is outside the allow list.
    var urlOutsideAllowList = 0
    /// Datagrams not sent to a destination that never sent anything, past its byte budget.
    var amplificationLimited = 0
    /// Peers named by others, never heard from, dropped with their subscriptions.
    var unheardExpired = 0
    /// Subscriptions refused because the requester's address already holds the most urls.
    var urlsPerHostCap = 0
    var tcpFirstFrameTimeouts = 0
    var tcpEvicted = 0
    var tcpInputBudgetClosed = 0
    /// Trees served after a reload (SIGHUP, `/sys/tree/reload`), and reloads refused.
    var treeReloads = 0
    var treeReloadsRefused = 0

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
            ("presetErrors", presetErrors), ("presetLimited", presetLimited),
            ("urlOutsideAllowList", urlOutsideAllowList),
            ("amplificationLimited", amplificationLimited), ("unheardExpired", unheardExpired),
            ("urlsPerHostCap", urlsPerHostCap),
            ("tcpFirstFrameTimeouts", tcpFirstFrameTimeouts),
            ("tcpEvicted", tcpEvicted), ("tcpInputBudgetClosed", tcpInputBudgetClosed),
            ("httpConnections", httpConnections), ("httpRequests", httpRequests),
            ("httpBadRequests", httpBadRequests), ("httpTimeouts", httpTimeouts), ("httpIdleClosed", httpIdleClosed),
            ("webSocketsOpened", webSocketsOpened), ("webSocketErrors", webSocketErrors),
            ("webSocketBadCommands", webSocketBadCommands),
            ("treeReloads", treeReloads), ("treeReloadsRefused", treeReloadsRefused),
        ]
    }
}
