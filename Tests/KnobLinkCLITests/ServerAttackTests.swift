import Foundation
import OSCCore
import Testing

/// Issue 9 against the release path of a user: the real `knoblink serve` as a child process, the
/// datagrams of the attack campaign, and a victim that listens and never sends.
@Suite(.serialized, .offThePool) struct ServerAttackTests {
    /// `/wave/sub … f 1e-12` then `/wave/progress f 0.5` made the next timer deadline overflow
    /// `UInt64`, and the process trapped (exit 132). Rates are bounded now, and every deadline is
    /// converted with a clamp.
    @Test func tinyRatesNoLongerCrashTheServer() throws {
        let server = try ServeProcess(["--feedback-port", "auto"])
        let visualiser = try UDPTestPeer(server: server.port)
        visualiser.send("/wave/sub", [.string(visualiser.url), .int32(16), .float32(1e-12)])
        visualiser.send("/wave/progress", [.float32(0.5)])
        visualiser.send("/wave/play")
        visualiser.send("/wave/sub", [.string(visualiser.url), .int32(16), .double(.leastNonzeroMagnitude)])
        visualiser.send("/sys/subscribe", [.string(visualiser.url), .string(""), .double(.leastNonzeroMagnitude)])
        visualiser.send("/knob/gain", 0.25)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(server.isRunning, "the server died: \(server.stderr.suffix(2000))")
        #expect(visualiser.request("/sys/ping", reply: "/sys/pong") != nil)
        #expect(server.terminate() == 0)
    }

    /// The sum of the sizes of the encoded messages.
    static func bytes(_ messages: [OSCMessage]) -> Int {
        messages.reduce(0) { $0 + $1.encoded().count }
    }

    /// What the campaign sent towards a victim outside the trusted range: 150 KB of `/wave/sub s
    /// VICTIM i 65536` became 849 MB (×5,528), `/sys/subscribe` with flags 31 ×614, `/sys/list` ×29.
    static func attack(_ victimURL: String) -> [OSCMessage] {
        [
            OSCMessage("/wave/sub", [.string(victimURL), .int32(65536)]),
            OSCMessage("/sys/subscribe", [.string(victimURL), .string(""), .float32(0), .int32(31)]),
            OSCMessage("/sys/list", [.string(victimURL)]),
            OSCMessage("/wave/info", [.string(victimURL)]),
        ]
    }

    @Test func aListenerThatNeverSendsGetsAtMostThreeTimesTheBytesThatNamedIt() throws {
        // 127.0.0.2 stands for an address off this machine: only 127.0.0.1 is trusted.
        let server = try ServeProcess(["--feedback-port", "auto", "--trust", "127.0.0.1/32"])
        let victim = try UDPTestPeer(host: "127.0.0.2", server: server.port)
        let attacker = try UDPTestPeer(server: server.port)
        let messages = Self.attack(victim.url)
        var sent = 0
        for round in 0..<200 {
            for message in messages { attacker.send(message.address, message.arguments) }
            attacker.send("/knob/gain", Float(round % 100) / 100)
            attacker.send("/wave/play")
            sent +=
                Self.bytes(messages) + Self.bytes([OSCMessage("/knob/gain", [.float32(0)]), OSCMessage("/wave/play")])
            if round % 20 == 0 { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(attacker.request("/sys/ping", reply: "/sys/pong") != nil)
        Thread.sleep(forTimeInterval: 1)
        let received = victim.datagramSizes.reduce(0, +)
        let factor = Double(received) / Double(sent)
        #expect(received <= 3 * sent, "the victim got \(received) bytes for \(sent) sent (x\(factor))")
        #expect(server.isRunning)
        #expect(server.terminate() == 0)
    }

    @Test func urlsOutsideTheAllowListGetNothing() throws {
        let server = try ServeProcess(["--feedback-port", "auto", "--allow", "127.0.0.1/32"])
        let victim = try UDPTestPeer(host: "127.0.0.2", server: server.port)
        let attacker = try UDPTestPeer(server: server.port)
        for message in Self.attack(victim.url) { attacker.send(message.address, message.arguments) }
        let error = attacker.waitForMessage("/sys/error")
        #expect(error?.strings.last?.contains("outside the allow list") == true, "\(String(describing: error))")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(victim.datagramCount == 0)
        #expect(server.terminate() == 0)
    }

    /// CPU seconds (user and system) the process `pid` has used, from /proc/PID/stat.
    static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name: state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The median of `count` ping round trips, in milliseconds, each from the send to the pong's
    /// arrival (not to when the peer's 5 ms polling saw it, which made a round trip either about
    /// 0.3 or about 5.2 ms and the comparison below flaky).
    static func medianPing(_ peer: UDPTestPeer, count: Int = 15) -> Double {
        var times: [Double] = []
        for _ in 0..<count {
            let start = ContinuousClock.now
            guard let pong = peer.requestReceived("/sys/ping", reply: "/sys/pong") else { return .infinity }
            times.append((pong.time - start).seconds * 1000)
        }
        return times.sorted()[count / 2]
    }

    /// The soak of item 2: every log event (filtered ones too) used to make the next one slower,
    /// through a closure that gained thunks each time it was read. 80,000 messages that each log
    /// an event, in rounds of 10,000: the CPU a round costs and the ping after it must not grow.
    @Test func cpuAndLatencyPerTenThousandMessagesDoNotGrow() throws {
        let server = try ServeProcess(["--feedback-port", "auto", "--rate-limit", "10000000", "--log-level", "error"])
        let pid = try #require(server.pid)
        let peer = try UDPTestPeer(server: server.port)
        let prober = try UDPTestPeer(server: server.port)
        var rounds: [(cpu: Double, ping: Double)] = []
        for _ in 0..<8 {
            let before = try #require(Self.cpuSeconds(pid))
            for chunk in 0..<10 {
                for _ in 0..<500 {
                    peer.send("/sys/subscribe", [.string(peer.url)])
                    peer.send("/sys/unsubscribe", [.string(peer.url)])
                }
                // A round trip every 1,000 messages keeps the socket's buffer from overflowing.
                _ = peer.request("/sys/ping", reply: "/sys/pong")
                _ = chunk
            }
            let after = try #require(Self.cpuSeconds(pid))
            rounds.append((after - before, Self.medianPing(prober)))
        }
        #expect(server.isRunning, "the server died: \(server.stderr.suffix(2000))")
        let report = rounds.map { String(format: "%.2f s %.2f ms", $0.cpu, $0.ping) }.joined(separator: ", ")
        // Compare the first two rounds with the last two, generously: before the fix the last
        // rounds cost several times the first ones and kept growing.
        let early = (rounds[0].cpu + rounds[1].cpu) / 2
        let late = (rounds[6].cpu + rounds[7].cpu) / 2
        #expect(late <= 2 * early + 0.2, "CPU per 10,000 messages grew: \(report)")
        let earlyPing = min(rounds[0].ping, rounds[1].ping)
        let latePing = min(rounds[6].ping, rounds[7].ping)
        #expect(latePing <= 3 * earlyPing + 2, "ping grew: \(report)")
        #expect(server.terminate() == 0)
    }
}
