// WebSocket peers against UDP peers of the same server (issue 11), in one run:
//   1. set → echo latency: a setter changes a parameter, a listener receives it (LISTEN over a
//      WebSocket, or /sys/subscribe at 120 Hz over UDP); each set waits for its echo, then 9 ms
//      (the listener's 120 Hz slot).
//   2. fan-out: one setter sends sets as fast as the server takes them, with 64 listeners
//      draining their sockets, WebSocket or UDP.
// Both run against KnobLink's server embedded in this process, on the 1,000-parameter tree,
// the setter cycling through the parameters so that no path hits the 120 Hz coalescing.
//
//   swift run -c release WebSocketBenchmarks [--quick]     (or `bash Scripts/bench.sh websocket`)
import BenchHarness
import Glibc
import KnobLink
import OSCCore
import Parameters
import Synchronization

let quick = CommandLine.arguments.contains("--quick")
let latencySets = quick ? 300 : 1000
let fanOutSets = quick ? 20_000 : 100_000
let listenerCount = 64
let rounds = quick ? 1 : 3

func makeTree() -> ParameterTree {
    let groups: [ParameterNodeSpec] = (0..<10).map { group in
        ParameterTree.createGroup(
            withIdentifier: "g\(group)", name: "Group \(group)",
            children: (0..<100).map { index in
                ParameterTree.createParameter(
                    withIdentifier: "p\(index)", name: "P\(index)", address: ParameterAddress(group * 100 + index),
                    min: 0, max: 1, unit: .generic, flags: [.readable, .writable], defaultValue: 0)
            })
    }
    do {
        return try ParameterTree(children: groups)
    } catch {
        fatalError("benchmark tree refused: \(error)")
    }
}

func startServer() -> KnobLinkServer {
    var configuration = KnobLinkServer.Configuration()
    configuration.port = 0
    configuration.bindHost = "127.0.0.1"
    configuration.feedbackPort = .auto
    configuration.rateLimit = 1 << 30
    configuration.implicitSubscriptions = false
    configuration.maxPeers = 256
    do {
        let server = try KnobLinkServer(tree: makeTree(), configuration: configuration)
        server.log = { event in
            if event.level <= .warning || event.message.contains("left") { progress("  server: \(event.message)") }
        }
        try server.start()
        return server
    } catch {
        fatalError("server: \(error)")
    }
}

let addresses = (0..<1000).map { "/g\($0 / 100)/p\($0 % 100)" }

func setPacket(_ index: Int, _ value: Float) -> [UInt8] {
    OSCMessage(addresses[index % addresses.count], [.float32(value)]).encoded()
}

/// The value of a `P f` message, if `bytes` is one for `address`.
func value(in bytes: [UInt8]) -> Float? {
    guard case .message(let message)? = try? OSCPacket.decode(bytes),
        case .float32(let value)? = message.arguments.first
    else { return nil }
    return value
}

enum Transport: String {
    case webSocket = "WebSocket"
    case udp = "UDP"
}

/// A listener of every parameter: `LISTEN /` on a WebSocket, or `/sys/subscribe` of every
/// parameter at 120 Hz (the WebSocket's rate) over UDP. Returns once the current values came.
func listener(_ transport: Transport, server: KnobLinkServer) -> BenchSocket {
    switch transport {
    case .webSocket:
        let socket = BenchSocket.webSocket(port: server.port)
        socket.write(BenchSocket.clientFrame(opcode: 1, Array(#"{"COMMAND":"LISTEN","DATA":"/"}"#.utf8)))
        for _ in 0..<addresses.count { _ = socket.frame() }
        return socket
    case .udp:
        let socket = BenchSocket.udp()
        socket.send(
            datagram: OSCMessage(
                "/sys/subscribe",
                [.string("osc.udp://127.0.0.1:\(socket.port)/"), .string(""), .float32(120), .int32(1)]
            ).encoded(), to: server.port)
        // The current values come between /sys/update brackets, in several datagrams.
        while true {
            let bytes = socket.datagram()
            if bytes.windowContains(Array("/sys/update".utf8)) && bytes.suffix(4) == [0, 0, 0, 0] { break }
        }
        return socket
    }
}

func setter(_ transport: Transport, server: KnobLinkServer) -> (send: ([UInt8]) -> Void, socket: BenchSocket) {
    switch transport {
    case .webSocket:
        let socket = BenchSocket.webSocket(port: server.port)
        return ({ socket.write(BenchSocket.clientFrame(opcode: 2, $0)) }, socket)
    case .udp:
        let socket = BenchSocket.udp()
        let port = server.port
        return ({ socket.send(datagram: $0, to: port) }, socket)
    }
}

/// Round-trip times of sets, each waiting for its echo at the listener (nanoseconds, sorted).
func latency(_ transport: Transport) -> [UInt64] {
    let server = startServer()
    defer { server.stop() }
    let listen = listener(transport, server: server)
    let (send, _) = setter(transport, server: server)
    var samples: [UInt64] = []
    samples.reserveCapacity(latencySets)
    for set in 0..<latencySets {
        // Both listeners take at most 120 packets a second (E5, the WebSocket's rate): a set
        // 9 ms after the last echo measures the way there, not the wait for the next slot.
        usleep(9000)
        let target = Float(set % 997 + 1) / 1000
        let start = nowNanoseconds()
        send(setPacket(set, target))
        while true {
            let bytes = transport == .webSocket ? listen.frame() : listen.datagram()
            if let got = value(in: bytes), abs(got - target) < 1e-6 { break }
        }
        samples.append(nowNanoseconds() - start)
    }
    withExtendedLifetime(listen) {}
    return samples.sorted()
}

/// Sets a second the server applies while fanning out to `listenerCount` listeners that drain
/// their sockets on a thread of their own.
func fanOut(_ transport: Transport) -> Double {
    let server = startServer()
    defer { server.stop() }
    let (send, socket) = setter(transport, server: server)
    let listeners = (0..<listenerCount).map { _ in listener(transport, server: server) }
    progress("  \(listeners.count) listeners have the current values")
    let drainer = DrainThread(fds: listeners.map(\.fd))
    drainer.start()
    let start = nowNanoseconds()
    for set in 0..<fanOutSets {
        send(setPacket(set, Float(set % 1000) / 1000))
        // The same pace for both: UDP has no backpressure (the kernel would drop what the server
        // cannot take), and on a WebSocket the listeners' drain thread must keep up, or the server
        // drops a listener whose queue passes 1 MiB, as it should drop a client that stops reading.
        if set % 64 == 63 { usleep(50) }
    }
    progress("  \(fanOutSets) sets sent")
    // The end: a ping's answer comes after every set before it was handled.
    let ping = OSCMessage("/sys/ping").encoded()
    switch transport {
    case .webSocket:
        socket.write(BenchSocket.clientFrame(opcode: 2, ping))
        while !(socket.frame().windowContains(Array("/sys/pong".utf8))) {}
    case .udp:
        socket.send(datagram: ping, to: server.port)
        while !(socket.datagram().windowContains(Array("/sys/pong".utf8))) {}
    }
    let seconds = Double(nowNanoseconds() - start) / 1e9
    // Every listener must still be there: one dropped for not reading fast enough would make
    // the figure look better than the server is.
    let subscribers = server.statistics().first { $0.name == "subscribers" }?.value ?? 0
    if subscribers != listenerCount {
        let stats = server.statistics().filter {
            ["subscribers", "tcpConnections", "webSocketErrors", "peers"].contains($0.name)
        }
        fatalError("\(transport.rawValue): \(subscribers) of \(listenerCount) listeners left \(stats)")
    }
    drainer.join()
    // The drain thread reads their descriptors: the sockets must live until it stops.
    withExtendedLifetime(listeners) {}
    return Double(fanOutSets) / seconds
}

/// Reads and drops whatever arrives on the listeners' sockets, on a thread of its own, until
/// ``join()``.
final class DrainThread: Sendable {
    let fds: [Int32]
    let running = Atomic<Bool>(true)

    init(fds: [Int32]) { self.fds = fds }

    private static let threads = Mutex<[pthread_t]>([])

    func start() {
        var thread = pthread_t()
        let box = Unmanaged.passRetained(self).toOpaque()
        pthread_create(
            &thread, nil,
            { argument in
                let drainer = Unmanaged<DrainThread>.fromOpaque(argument!).takeRetainedValue()
                drainer.loop()
                return nil
            }, box)
        Self.threads.withLock { $0.append(thread) }
    }

    func join() {
        running.store(false, ordering: .relaxed)
        let threads = Self.threads.withLock { threads in
            defer { threads.removeAll() }
            return threads
        }
        for thread in threads { pthread_join(thread, nil) }
    }

    private func loop() {
        var polls = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while running.load(ordering: .relaxed) {
            guard poll(&polls, nfds_t(polls.count), 20) > 0 else { continue }
            for index in polls.indices where polls[index].revents & Int16(POLLIN) != 0 {
                _ = chunk.withUnsafeMutableBytes {
                    recv(polls[index].fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                }
            }
        }
    }
}

/// A line on standard error as the run goes (the report itself goes to standard output).
func progress(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

let report = Report(title: "WebSocket peers against UDP peers, one server (\(rounds) rounds)")
var webSocketP50: [Double] = []
var udpP50: [Double] = []
var webSocketP99: [Double] = []
var udpP99: [Double] = []
var webSocketRates: [Double] = []
var udpRates: [Double] = []
for round in 0..<rounds {
    let order: [Transport] = round % 2 == 0 ? [.webSocket, .udp] : [.udp, .webSocket]
    for transport in order {
        progress("round \(round + 1): set → echo over \(transport.rawValue)")
        let samples = latency(transport)
        let p50 = Double(Statistics.percentile(samples, 50)) / 1000
        let p99 = Double(Statistics.percentile(samples, 99)) / 1000
        if transport == .webSocket {
            webSocketP50.append(p50)
            webSocketP99.append(p99)
        } else {
            udpP50.append(p50)
            udpP99.append(p99)
        }
    }
    for transport in order {
        progress("round \(round + 1): fan-out to \(listenerCount) \(transport.rawValue) listeners")
        let rate = fanOut(transport)
        if transport == .webSocket { webSocketRates.append(rate) } else { udpRates.append(rate) }
    }
}
func microseconds(_ values: [Double]) -> String { "\(Format.fixed(Statistics.median(values), decimals: 1)) µs" }
report.add(
    "set → echo p50 (WebSocket setter and listener vs UDP)", knobLink: microseconds(webSocketP50),
    peer: "UDP \(microseconds(udpP50))", ratio: Statistics.median(udpP50) / Statistics.median(webSocketP50),
    target: nil)
report.add(
    "set → echo p99", knobLink: microseconds(webSocketP99), peer: "UDP \(microseconds(udpP99))",
    ratio: Statistics.median(udpP99) / Statistics.median(webSocketP99), target: nil)
report.addSamples(
    "sets/s with \(listenerCount) listeners (WebSocket LISTEN / vs UDP subscribers)", knobLink: webSocketRates,
    peerName: "UDP", peer: udpRates, target: nil)
report.printMarkdown()
