import CBenchPeer
import Dispatch
import OSCCore
import OSCTransport
import Synchronization

/// KnobLink's side of the UDP scenarios: an `OSCUDPServer` whose handler decodes each datagram in
/// place, and an `OSCUDPClient` that encodes each message and sends it from the caller's thread
/// (liblo's `lo_send` also builds and serialises every message it sends).
enum KnobLinkUDP {
    /// What the receiving handler saw, shared with the thread that waits for it.
    final class Tally: Sendable {
        let received = Atomic<Int>(0)
        let lastReceive = Atomic<UInt64>(0)
        let cpu = Atomic<Int32>(-1)
        /// The CPU of the thread that runs the client's reply handler.
        let clientCPU = Atomic<Int32>(-1)
    }

    /// How the client side of a round trip waits for the reply.
    enum ClientStyle {
        /// The client's reply handler sends the next ping itself (an event-driven client): the
        /// reader thread that received the reply sends, then blocks for the next one.
        case handlerDriven
        /// A caller's thread sends and waits in `OSCUDPClient.receive(timeout:)`, the client's
        /// blocking request–reply call (no reader thread).
        case blockingReceive
    }

    /// A scratch buffer for one thread at a time (the server's handler runs only on its loop).
    final class Scratch: @unchecked Sendable {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)
        deinit { buffer.deallocate() }
    }

    /// Encodes `/knob/gain ,f value` into `buffer` and sends it.
    @inline(__always)
    static func sendGain(_ value: Float, _ client: OSCUDPClient, _ buffer: UnsafeMutableRawBufferPointer) {
        let size = OSCMessage("/knob/gain", [.float32(value)]).encode(into: buffer)
        _ = try? client.send(UnsafeRawBufferPointer(rebasing: buffer[0..<size]))
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
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)
        defer { buffer.deallocate() }
        let start = kb_now_ns()
        for _ in 0..<count {
            sendGain(0.5, client, buffer)
        }
        let sendDone = kb_now_ns()
        while tally.received.load(ordering: .relaxed) < count && kb_now_ns() - sendDone < 300_000_000 {
            sleepMilliseconds(1)
        }
        let received = tally.received.load(ordering: .relaxed)
        let elapsed = tally.lastReceive.load(ordering: .relaxed) - start
        client.close()
        server.close()
        return ThroughputResult(
            received: received, sent: count, elapsedNanoseconds: elapsed, sendNanoseconds: sendDone - start)
    }

    /// The state of a handler-driven ping-pong, touched by the client's reply handler and by the
    /// thread that started it (only to resend after a loss).
    final class PingPong: @unchecked Sendable {
        struct State {
            var sentAt: UInt64 = 0
            var index = -1000
            var samples: [UInt64] = []
        }
        let state = Mutex(State())
        let done = DispatchSemaphore(value: 0)
        let progress = Atomic<Int>(0)
        let count: Int
        let client: OSCUDPClient
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)

        init(count: Int, client: OSCUDPClient) {
            self.count = count
            self.client = client
            state.withLock { $0.samples.reserveCapacity(count) }
        }

        deinit { buffer.deallocate() }

        /// Sends the next ping (under the lock, so that a resend and a reply never interleave).
        func ping() {
            state.withLock { state in
                state.sentAt = kb_now_ns()
                sendGain(0.5, client, buffer)
            }
        }

        /// The reply handler: records the trip and sends the next ping, or reports the end.
        func replied() {
            let finished = state.withLock { state -> Bool in
                let now = kb_now_ns()
                if state.index >= 0 { state.samples.append(now - state.sentAt) }
                state.index += 1
                guard state.index < count else { return true }
                state.sentAt = kb_now_ns()
                sendGain(0.5, client, buffer)
                return false
            }
            progress.add(1, ordering: .relaxed)
            if finished { done.signal() }
        }
    }

    /// `count` ping-pongs after 1000 unmeasured ones: the client sends, the server's handler decodes
    /// the message in place, encodes the reply and sends it from the listening socket, and the
    /// client's handler takes the reply (see ``ClientStyle``).
    static func roundTrips(count: Int, placement: Placement, style: ClientStyle) -> LatencyResult {
        if placement == .twoCPUs { _ = kb_pin_process(0b10) }
        let server = try! OSCUDPServer(host: "127.0.0.1", port: 0)
        let tally = Tally()
        let reply = Scratch()
        let apart = placement == .twoCPUs
        server.start { bytes, sender in
            // The handler runs on the server's reader thread (or a loop thread); pin whichever it is.
            if apart && kb_current_cpu() != 1 { _ = kb_pin_thread(1) }
            tally.cpu.store(kb_current_cpu(), ordering: .relaxed)
            if let message = try? OSCMessageView(bytes), let value = message.float(at: 0) {
                let size = OSCMessage("/knob/gain", [.float32(value)]).encode(into: reply.buffer)
                _ = try? server.send(UnsafeRawBufferPointer(rebasing: reply.buffer[0..<size]), to: sender)
            }
        }
        if apart { _ = kb_pin_thread(0) }
        let client = try! OSCUDPClient(remote: server.localAddress)
        let (samples, timeouts) =
            switch style {
            case .handlerDriven: handlerDriven(count: count, client: client, tally: tally, apart: apart)
            case .blockingReceive: blockingReceive(count: count, client: client, tally: tally)
            }
        client.close()
        server.close()
        if placement == .twoCPUs { _ = kb_pin_process(0b11) }
        precondition(!samples.isEmpty, "KnobLink round trip: no reply at all")
        var result = LatencyResult(
            samples: samples, clientCPU: tally.clientCPU.load(ordering: .relaxed),
            echoCPU: tally.cpu.load(ordering: .relaxed))
        result.timeouts = timeouts
        return result
    }

    private static func handlerDriven(count: Int, client: OSCUDPClient, tally: Tally, apart: Bool) -> ([UInt64], Int) {
        let pingPong = PingPong(count: count, client: client)
        client.start { _, _ in
            if apart && kb_current_cpu() != 0 { _ = kb_pin_thread(0) }
            tally.clientCPU.store(kb_current_cpu(), ordering: .relaxed)
            pingPong.replied()
        }
        var timeouts = 0
        pingPong.ping()
        var seen = 0
        while pingPong.done.wait(timeout: .now() + .milliseconds(200)) == .timedOut {
            // No reply for 200 ms and no progress: a lost datagram (or a stalled loop). Resend.
            let now = pingPong.progress.load(ordering: .relaxed)
            if now == seen {
                timeouts += 1
                if timeouts >= 100 { break }
                pingPong.ping()
            }
            seen = now
        }
        return (pingPong.state.withLock { $0.samples }, timeouts)
    }

    private static func blockingReceive(count: Int, client: OSCUDPClient, tally: Tally) -> ([UInt64], Int) {
        tally.clientCPU.store(kb_current_cpu(), ordering: .relaxed)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)
        defer { buffer.deallocate() }
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        var timeouts = 0
        var index = -1000
        while index < count && timeouts < 100 {
            let start = kb_now_ns()
            sendGain(0.5, client, buffer)
            guard (try? client.receive(timeout: .milliseconds(200))) != nil else {
                // A lost datagram (or a stalled loop): let a late reply arrive, forget it, resend.
                timeouts += 1
                _ = try? client.receive(timeout: .milliseconds(50))
                continue
            }
            if index >= 0 { samples.append(kb_now_ns() - start) }
            index += 1
        }
        return (samples, timeouts)
    }

    private static func sleepMilliseconds(_ milliseconds: Int) {
        let semaphore = DispatchSemaphore(value: 0)
        _ = semaphore.wait(timeout: .now() + .milliseconds(milliseconds))
    }
}
