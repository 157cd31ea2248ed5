import CBenchPeer
import Dispatch
import OSCCore
import OSCTransport
import Synchronization

/// KnobLink's side of the UDP scenarios: an `OSCUDPServer` whose handler decodes each datagram in
/// place, and an `OSCUDPClient` that sends from the caller's thread.
enum KnobLinkUDP {
    /// What the receiving handler saw, shared with the thread that waits for it.
    final class Tally: Sendable {
        let received = Atomic<Int>(0)
        let lastReceive = Atomic<UInt64>(0)
        let cpu = Atomic<Int32>(-1)
    }

    private static func gainPacket() -> [UInt8] {
        withUnsafeBytes(of: kb_gain_packet) { Array($0) }
    }

    /// Sends `count` datagrams as fast as the client takes them; the server counts the ones that
    /// decode to `/knob/gain 0.5`.
    static func throughput(count: Int) -> ThroughputResult {
        let server = try! OSCUDPServer(host: "127.0.0.1", port: 0)
        let tally = Tally()
        server.start { bytes, _ in
            if let message = try? OSCMessageView(bytes), message.float(at: 0) == 0.5 {
                tally.received.add(1, ordering: .relaxed)
                tally.lastReceive.store(kb_now_ns(), ordering: .relaxed)
            }
        }
        let client = try! OSCUDPClient(remote: server.localAddress)
        let packet = gainPacket()
        let start = kb_now_ns()
        packet.withUnsafeBytes { bytes in
            for _ in 0..<count {
                _ = try? client.send(bytes)
            }
        }
        let sendDone = kb_now_ns()
        while tally.received.load(ordering: .relaxed) < count && kb_now_ns() - sendDone < 300_000_000 {
            usleepMilliseconds(1)
        }
        let received = tally.received.load(ordering: .relaxed)
        let elapsed = tally.lastReceive.load(ordering: .relaxed) - start
        client.close()
        server.close()
        return ThroughputResult(
            received: received, sent: count, elapsedNanoseconds: elapsed, sendNanoseconds: sendDone - start)
    }

    /// `count` ping-pongs after 1000 unmeasured ones: the client sends, the server's handler decodes
    /// and echoes from the listening socket, the client's handler wakes the sending thread.
    static func roundTrips(count: Int, placement: Placement) -> LatencyResult {
        if placement == .twoCPUs { _ = kb_pin_process(0b10) }
        let server = try! OSCUDPServer(host: "127.0.0.1", port: 0)
        let tally = Tally()
        server.start { bytes, sender in
            tally.cpu.store(kb_current_cpu(), ordering: .relaxed)
            if let message = try? OSCMessageView(bytes), message.float(at: 0) == 0.5 {
                _ = try? server.send(bytes, to: sender)
            }
        }
        let client = try! OSCUDPClient(remote: server.localAddress)
        let replied = DispatchSemaphore(value: 0)
        client.start { _, _ in replied.signal() }
        if placement == .twoCPUs { _ = kb_pin_thread(0) }
        let clientCPU = kb_current_cpu()
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        var timeouts = 0
        let packet = gainPacket()
        packet.withUnsafeBytes { bytes in
            var index = -1000
            while index < count && timeouts < 100 {
                let start = kb_now_ns()
                _ = try? client.send(bytes)
                if replied.wait(timeout: .now() + .milliseconds(200)) == .timedOut {
                    // A lost datagram (or a stalled loop): let a late reply arrive, forget it, resend.
                    timeouts += 1
                    _ = replied.wait(timeout: .now() + .milliseconds(50))
                    continue
                }
                if index >= 0 { samples.append(kb_now_ns() - start) }
                index += 1
            }
        }
        client.close()
        server.close()
        if placement == .twoCPUs { _ = kb_pin_process(0b11) }
        precondition(!samples.isEmpty, "KnobLink round trip: no reply at all")
        var result = LatencyResult(samples: samples, clientCPU: clientCPU, echoCPU: tally.cpu.load(ordering: .relaxed))
        result.timeouts = timeouts
        return result
    }

    private static func usleepMilliseconds(_ milliseconds: Int) {
        let semaphore = DispatchSemaphore(value: 0)
        _ = semaphore.wait(timeout: .now() + .milliseconds(milliseconds))
    }
}
