import OSCCore
import OSCTransport
import RemoteTree
import Testing

/// Servers that are not there, not KnobLink, or hostile: each ends in a clear error within the
/// time allowed, never in a crash or a wait without end.
@Suite struct RemoteTreeFailureTests {
    static var quick: RemoteTreeOptions {
        var options = RemoteTreeOptions()
        options.timeout = .milliseconds(500)
        options.maximumNodes = 50
        return options
    }

    static func connect(_ port: UInt16, transport: OSCURL.Transport = .udp) async -> RemoteTreeError? {
        do {
            _ = try await RemoteParameterTree.connect(
                to: OSCURL(transport: transport, host: "127.0.0.1", port: port), options: quick)
            return nil
        } catch {
            return error
        }
    }

    @Test func silenceIsNoAnswer() async throws {
        let silent = try UDPPeer()
        let error = await Self.connect(silent.socket.localAddress.port)
        #expect(error == .noAnswer("osc.udp://127.0.0.1:\(silent.socket.localAddress.port)/", seconds: 0.5))
        #expect(error?.description.contains("no answer") == true)
    }

    @Test func aRefusedTCPConnectionIsUnreachable() async throws {
        // A port that was just free: bound by a UDP socket, so no TCP listener has it.
        let silent = try UDPPeer()
        let error = await Self.connect(silent.socket.localAddress.port, transport: .tcp)
        guard case .unreachable? = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
    }

    @Test func garbageIsNotKnobLink() async throws {
        let garbage = try UDPPeer { _, _ in [[0xFF, 0x00, 0x13, 0x37, 0x01]] }
        let error = await Self.connect(garbage.socket.localAddress.port)
        guard case .notKnobLink(_, let reason)? = error else {
            Issue.record("expected notKnobLink, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("not OSC"))
    }

    @Test func anOSCServerWithoutSysIsNotKnobLink() async throws {
        let other = try UDPPeer { message, _ in
            [OSCMessage("/sys/error", [.string(message?.address ?? ""), .string("unknown address")]).encoded()]
        }
        let error = await Self.connect(other.socket.localAddress.port)
        guard case .notKnobLink(_, let reason)? = error else {
            Issue.record("expected notKnobLink, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("unknown address"))
    }

    /// Answers `/sys/ping` and `/sys/groups` like a server, and `/sys/list` with `list`.
    static func fakeServer(list: @escaping @Sendable () -> [[UInt8]]) throws -> UDPPeer {
        try UDPPeer { message, _ in
            switch message?.address {
            case "/sys/ping": [OSCMessage("/sys/pong", [.string("fake"), .string("0")]).encoded()]
            case "/sys/groups":
                [OSCMessage("/sys/update", [.int32(1)]).encoded(), OSCMessage("/sys/update", [.int32(0)]).encoded()]
            case "/sys/list": list()
            default: []
            }
        }
    }

    static func param(_ address: String) -> [UInt8] {
        OSCMessage(
            "/sys/param",
            [.string(address), .string("P"), .string(""), .float32(0), .float32(1), .float32(0), .float32(0)]
        ).encoded()
    }

    @Test func aListLongerThanTheLimitIsRefused() async throws {
        let hostile = try Self.fakeServer {
            [OSCMessage("/sys/update", [.int32(1)]).encoded()] + (0..<500).map { Self.param("/p\($0)") }
        }
        let error = await Self.connect(hostile.socket.localAddress.port)
        guard case .invalidList(_, let reason)? = error else {
            Issue.record("expected invalidList, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("more than 50"))
    }

    @Test func aBracketThatNeverClosesIsAnIncompleteList() async throws {
        let hostile = try Self.fakeServer { [OSCMessage("/sys/update", [.int32(1)]).encoded(), Self.param("/a")] }
        let error = await Self.connect(hostile.socket.localAddress.port)
        guard case .incompleteList(_, let reason)? = error else {
            Issue.record("expected incompleteList, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("did not close"))
    }

    @Test(arguments: ["/sys/x", "/a//b", "no-slash", "/bad id"])
    func anAddressThatCannotBeATreeIsRefused(address: String) async throws {
        let hostile = try Self.fakeServer {
            [
                OSCMessage("/sys/update", [.int32(1)]).encoded(), Self.param(address),
                OSCMessage("/sys/update", [.int32(0)]).encoded(),
            ]
        }
        let error = await Self.connect(hostile.socket.localAddress.port)
        switch error {
        case .invalidList?, .notKnobLink?, .incompleteList?: break
        default: Issue.record("expected a refused list, got \(String(describing: error))")
        }
    }
}
