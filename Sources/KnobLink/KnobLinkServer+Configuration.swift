extension KnobLinkServer {
    /// How a server listens, whom it accepts, and its limits (PROTOCOL.md sections 1, 3 and 8).
    public struct Configuration: Sendable {
        /// The UDP and TCP port; 0 picks a free port (the same number for both).
        public var port: UInt16 = 8000
        /// The local address to bind (`127.0.0.1`, `0.0.0.0`, or `::` for IPv6 and IPv4 at once);
        /// `nil` binds every IPv4 interface.
        public var bindHost: String? = nil
        /// The peers accepted; packets from others are dropped and counted.
        public var allowList: AllowList = .privateRanges
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
        /// The deepest bundle nesting accepted (a top-level bundle is depth 1).
        public var maxBundleDepth = 8
        /// The directory of preset files, or `nil` for none (preset messages then get `/sys/error`).
        public var presetsDirectory: String? = nil
        /// The file that keeps values across restarts, or `nil`.
        public var stateFile: String? = nil
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
