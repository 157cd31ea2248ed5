import Foundation
import FuzzSupport
import OSCCore
import OSCTransport
import Parameters

@testable import KnobLink

/// Drives a whole server core with well-formed messages of every address and argument kind:
/// parameter sets, queries and touches in every facet, subscriptions, `/wave/*`, links, presets,
/// bundles with time tags near, far and past, from up to 16 senders, with time moved forward on
/// the server's virtual clock (``ServerClock``) and the core's timers run between packets; then
/// checks that its tables and queues stay within their limits.
///
/// The input is a program: each step takes a sender byte, a shape byte and argument bytes off the
/// front. The server is real (its sockets bound on loopback, where replies go nowhere), and the
/// packets go straight into its receive path on its loop, as its UDP socket would hand them over.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerCore(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let core = ServerCoreFuzzer.shared.server.core
    core.loop.queue.sync {
        var steps = 0
        while !input.bytes.isEmpty && steps < 64 {
            steps += 1
            let sender = ServerCoreFuzzer.senders[Int(input.takeByte()) % ServerCoreFuzzer.senders.count]
            let packet = ServerCoreFuzzer.packet(&input)
            packet.withUnsafeBytes { core.receiveDatagram($0, from: sender) }
            core.udpBatchEnded()
            // Time passes (up to a minute, on the virtual clock), and a timer may fire.
            let timing = input.takeByte()
            if timing & 0x80 != 0 { ServerClock.advance(by: UInt64(input.takeByte()) * 250_000_000) }
            switch timing % 4 {
            case 0: core.sweep()
            case 1: core.wave?.update()
            case 2: core.flushDue(now: ServerCore.now())
            default: break
            }
        }
        ServerCoreFuzzer.checkInvariants(core)
    }
    return 0
}

enum ServerCoreFuzzer {
    /// One server for the whole run, as a process serves its peers for its whole life.
    nonisolated(unsafe) static let shared = Instance()

    final class Instance {
        let server: KnobLinkServer
        init() {
            var configuration = KnobLinkServer.Configuration()
            configuration.port = 0
            configuration.bindHost = "127.0.0.1"
            configuration.feedbackPort = .auto
            configuration.maxPeers = 8
            configuration.trusted = try! AllowList(parsing: ["127.0.0.1/32"])
            let presets = NSTemporaryDirectory() + "knoblink-fuzz-presets-\(getpid())"
            try? FileManager.default.createDirectory(atPath: presets, withIntermediateDirectories: true)
            configuration.presetsDirectory = presets
            server = try! KnobLinkServer(tree: ParameterTree.makeDefault(), configuration: configuration)
            try! server.start()
        }
    }

    /// 16 senders on four loopback hosts; 127.0.0.1 is trusted, the others are not.
    static let senders: [OSCSocketAddress] = (0..<16).map {
        OSCSocketAddress(numericHost: "127.0.0.\($0 % 4 + 1)", port: UInt16(40_000 + $0))!
    }

    static let addresses: [String] = {
        var list: [String] = []
        for parameter in ["/knob/gain", "/knob/pan", "/amp/sustain", "/knob/*", "/*/gain", "/{knob,amp}/?ain"] {
            list.append(parameter)
            for facet in ["raw", "str", "touch", "z", "get", "info", "raw/get", "str/get"] {
                list.append(parameter + "/" + facet)
            }
        }
        list += [
            "/sys/subscribe", "/sys/unsubscribe", "/sys/refresh", "/sys/list", "/sys/groups", "/sys/ping",
            "/sys/stats", "/sys/preset/save", "/sys/preset/load", "/sys/preset/list", "/sys/preset/delete",
            "/sys/link", "/sys/unlink", "/sys/via", "/wave/sub", "/wave/unsub", "/wave/progress",
            "/wave/progress/touch", "/wave/play", "/wave/pause", "/wave/playing", "/wave/level", "/wave/info",
            "/wave/load", "/nowhere",
        ]
        return list
    }()

    static let strings: [String] = [
        "", "osc.udp://127.0.0.1:40001/", "osc.udp://127.0.0.2:9000/", "osc.udp://127.0.0.3:65535/",
        "osc.udp://localhost:1/", "osc.tcp://127.0.0.1:40002/", "osc.udp://[::1]:9000/", "osc.udp://10.0.0.1:9/",
        "garbage", "/knob/*", "/*", "preset one", "../escape", ".hidden", "-6 dB", "loud", "song.wav",
        String(repeating: "x", count: 300),
    ]

    static let floats: [Float] = [
        0, 0.5, 1, -1, 2, 1e-12, .leastNonzeroMagnitude, 1e30, -1e30, .infinity, -.infinity, .nan, 0.25, 120, 65536,
    ]

    /// One argument, chosen and filled from the input.
    static func argument(_ input: inout FuzzInput) -> OSCArgument {
        let choice = input.takeByte()
        let value = input.takeByte()
        switch choice % 9 {
        case 0: return .float32(floats[Int(value) % floats.count])
        case 1: return .int32(Int32(truncatingIfNeeded: Int(value) * 257 - 100))
        case 2: return .int32([0, 1, 16, 31, 64, 65536, Int32.max, Int32.min, -1][Int(value) % 9])
        case 3: return .string(strings[Int(value) % strings.count])
        case 4: return .double([0, 1e-300, .leastNonzeroMagnitude, 1e300, .nan, 0.5][Int(value) % 6])
        case 5: return .blob(Array(repeating: value, count: Int(value) % 64))
        case 6: return .true
        case 7: return .int64(Int64(value) << 40)
        default: return .float32(Float(value) / 255)
        }
    }

    static func message(_ input: inout FuzzInput) -> OSCMessage {
        let address = addresses[Int(input.takeByte()) % addresses.count]
        let count = Int(input.takeByte() % 5)
        return OSCMessage(address, (0..<count).map { _ in argument(&input) })
    }

    /// A message, or a bundle of a few (some nested) with a time tag now, soon, far ahead or past.
    static func packet(_ input: inout FuzzInput) -> [UInt8] {
        let shape = input.takeByte()
        guard shape % 3 == 0 else { return message(&input).encoded() }
        let elements = (0..<Int(shape / 3 % 6) + 1).map { index -> OSCPacket in
            index == 0 && shape & 0x80 != 0
                ? .bundle(OSCBundle(timeTag: timeTag(input.takeByte()), [.message(message(&input))]))
                : .message(message(&input))
        }
        return OSCPacket.bundle(OSCBundle(timeTag: timeTag(input.takeByte()), elements)).encoded()
    }

    static func timeTag(_ byte: UInt8) -> OSCTimeTag {
        let now = OSCTimeTag(secondsSince1970: Date().timeIntervalSince1970).rawValue
        switch byte % 6 {
        case 0: return .immediately
        case 1: return OSCTimeTag(rawValue: now &+ UInt64(byte) << 24)
        case 2: return OSCTimeTag(rawValue: now &+ UInt64(byte) << 40)
        case 3: return OSCTimeTag(rawValue: UInt64.max - UInt64(byte))
        case 4: return OSCTimeTag(rawValue: now &- UInt64(byte) << 32)
        default: return OSCTimeTag(rawValue: UInt64(byte))
        }
    }

    /// The core's tables and queues are within their limits.
    static func checkInvariants(_ core: ServerCore) {
        let limit = core.configuration.maxPeers
        fuzzCheck(core.peers.count <= core.peerTableLimit + 1, "\(core.peers.count) peers in the table")
        fuzzCheck(core.subscribers.count <= limit, "\(core.subscribers.count) subscribers, at most \(limit)")
        fuzzCheck((core.wave?.subscribers.count ?? 0) <= limit, "too many wave subscribers")
        fuzzCheck(core.waiting.count <= core.subscribers.count, "\(core.waiting.count) peers waiting")
        for peer in core.waiting {
            fuzzCheck(peer.isWaiting && peer.state != nil && peer.isInTable, "a peer waits that is not a subscriber")
        }
        fuzzCheck(core.unheardPeers >= 0 && core.unheardPeers <= core.peers.count, "\(core.unheardPeers) unheard")
        let unheard = core.peers.values.filter(\.isUnheard).count
        fuzzCheck(unheard == core.unheardPeers, "\(unheard) unheard peers, counted \(core.unheardPeers)")
        for peer in core.peers.values where peer.isUnheard {
            fuzzCheck(peer.credit <= ServerCore.maximumCredit, "credit \(peer.credit)")
        }
        for host in Set(core.subscribers.compactMap(\.sponsorHost)) {
            fuzzCheck(core.urlsHeld(by: host) <= ServerCore.maximumURLsPerHost, "a host holds too many urls")
        }
    }
}
