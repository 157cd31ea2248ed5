extension KnobLinkServer {
    /// How a server listens, whom it accepts, and its limits (PROTOCOL.md sections 1, 3 and 8).
    public struct Configuration: Sendable {
        /// The UDP and TCP port; 0 picks a free port (the same number for both).
        public var port: UInt16 = 8000
        /// The local address to bind (`127.0.0.1`, `0.0.0.0` for IPv4 alone, `::` for IPv6 and
        /// IPv4 at once); `nil` binds every interface of both families (`::`), or every IPv4 one
        /// on a machine without IPv6.
        public var bindHost: String? = nil
        /// The peers accepted; packets from others are dropped and counted.
        public var allowList: AllowList = .privateRanges
        /// Destinations that may be sent more than three times the bytes of the request that
        /// named them although they never sent the server anything (`--trust`; default loopback). Every url a peer names must be inside ``allowList`` whatever this is.
        public var trusted: AllowList = .loopback
        /// Where replies and feedback to UDP peers go.
        public var feedbackPort: FeedbackPort = .fixed(9000)
        /// The prefix of every parameter address (`/inst1`), or `""` for none.
        public var root: String = ""
        /// The instance's name in `/sys/pong` and link hop lists; `nil` means `host:port`.
        public var name: String? = nil
        /// Whether a peer that sends to a parameter address becomes a subscriber (rule 9.7).
        public var implicitSubscriptions = true
        /// Seconds without any message after which an implicit subscription ends.
        public var implicitExpiry: Double = 60
        /// How long after a peer set a parameter its feedback for it is held (E4).
        public var touchGuardMilliseconds = 150
        /// The most subscribers, and the most TCP connections, at once.
        public var maxPeers = 64
        /// Messages a second per peer (token bucket of that many tokens).
        public var rateLimit = 2000
        /// The longest TCP frame accepted, in bytes.
        public var maxFrameLength = 1 << 20
        /// The most bytes of unfinished TCP frames held across all connections; beyond it the
        /// connection holding the most is closed.
        public var maxBufferedInput = 16 << 20
        /// Seconds a TCP connection may take to complete its first frame before it is closed;
        /// 0 for no limit. At the connection limit, the connection idle longest (for a second
        /// or more) gives way to a new one.
        public var firstFrameTimeout: Double = 10
        /// Seconds an HTTP connection may stay idle between requests before it is closed
        /// (PROTOCOL.md section 8); 0 for no limit. A WebSocket has no such limit.
        public var httpIdleTimeout: Double = 30
        /// Seconds an HTTP request may take to arrive whole, from its first byte; a slower one
        /// (a request head of at most ``maxHTTPHeadLength`` bytes taking longer) gets 408 and the
        /// connection closes. 0 for no limit.
        public var httpRequestTimeout: Double = 10
        /// The longest request line and headers accepted, in bytes; beyond it the answer is 431.
        public var maxHTTPHeadLength = 8192
        /// The colours of the web page (`--theme-file`): JSON of the six theme colours, light and
        /// dark (SURFACES.md section 1); `nil` for the built-in ones.
        public var themeJSON: String? = nil
        /// The most links at once, those of ``links`` and those peers add with `/sys/link`.
        public var maxLinks = 16
        /// The deepest bundle nesting accepted (a top-level bundle is depth 1).
        public var maxBundleDepth = 8
        /// The directory of preset files, or `nil` for none (preset messages then get `/sys/error`).
        public var presetsDirectory: String? = nil
        /// How many presets, how many bytes of them, and how many saves a second peers may make
        /// (`--max-presets`, `--max-preset-bytes`, `--preset-save-rate`).
        public var presetLimits = PresetLimits()
        /// The file that keeps values across restarts, or `nil`.
        public var stateFile: String? = nil
        /// The tree file that `/sys/tree/reload` and ``KnobLinkServer/reloadTreeFile()`` read again
        /// (`--tree`), or `nil` when the tree comes from elsewhere: reloads are then refused.
        public var treeFile: String? = nil
        /// Other instances to link to at start (`--link URL`, `--link-one-way URL`).
        public var links: [LinkConfiguration] = []
        /// The audio file the wave stream starts with (`--audio`), decoded when the server is
        /// created (a file that cannot be decoded makes the initialiser throw its
        /// `AudioDecodingError`); `nil` streams the generated demo signal (PROTOCOL.md section 5).
        public var audioFile: String? = nil
        /// The directory below which `/wave/load` may read files (`--media-dir`); `nil` refuses
        /// every `/wave/load`.
        public var mediaDirectory: String? = nil

        /// The defaults of `knoblink serve`.
        public init() {}
    }
}
