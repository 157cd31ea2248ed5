import BenchHarness
import CServerPeer

/// One throughput run: a setter peer sends `/p/pN f v` cycling through the tree while every subscriber
/// counts its echoes (Sources/CServerPeer); the server's own counter says how many sets it applied.
struct Throughput {
    var result: kb_sp_throughput_result
    let subscribers: Int

    /// Starts a fresh server, runs once, stops the server.
    static func run(
        _ start: () -> ServerUnderTest, subscribers: Int, maxHz: Float, addresses: Int, perDatagram: Int, sets: Int,
        rate: Double
    ) -> Throughput {
        let server = start()
        defer { server.stop() }
        var config = kb_sp_throughput_config(
            port: server.port, subscribers: Int32(subscribers), max_hz: maxHz,
            parameters: Int32(BenchTree.parameterCount), addresses: Int32(addresses), per_datagram: Int32(perDatagram),
            sets: sets, rate: rate,
            applied: server.appliedFunction,
            context: server.context)
        var result = kb_sp_throughput_result()
        let status = withExtendedLifetime(server) { kb_sp_throughput(&config, &result) }
        precondition(
            status == 0, "\(server.name): only \(result.subscribed) of \(subscribers) subscriptions confirmed")
        return Throughput(result: result, subscribers: subscribers)
    }

    /// Applied sets per second, from the first send to the moment the server's counter stopped growing.
    var appliedRate: Double { Double(result.applied) * 1e9 / Double(max(result.elapsed_ns, 1)) }
    /// Sets per second the setter handed to the kernel.
    var offeredRate: Double { Double(result.sent) * 1e9 / Double(max(result.send_ns, 1)) }
    /// Sets sent and never applied (dropped by the kernel at the server's socket, or by the server).
    var lostSets: Int { result.sent - result.applied }
    /// Echo messages the subscribers received per applied set (32 without coalescing).
    var echoesPerSet: Double { Double(result.echoes) / Double(max(result.applied, 1)) }

    var summary: String {
        "applied \(result.applied) of \(result.sent) sent (offered \(Format.rate(offeredRate))), "
            + "\(result.echoes) echoes in \(result.datagrams) datagrams "
            + "(\(result.echoes_min)…\(result.echoes_max) per subscriber, \(Format.fixed(echoesPerSet, decimals: 1)) per set)"
    }
}
