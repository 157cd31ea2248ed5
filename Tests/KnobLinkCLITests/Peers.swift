import CLibLO
import Foundation
import Testing

/// The programs at both ends of the interoperability tests, each started on a free port and
/// stopped at the end, with every wait bounded.
enum Peers {
    /// A port that nothing listens on right now, found by letting liblo bind port 0 and closing
    /// it again (liblo closes synchronously, so the port is free when this returns).
    static func freePort(tcp: Bool = false) throws -> UInt16 {
        let server = try #require(lo_server_new_with_proto(nil, tcp ? LO_TCP : LO_UDP, nil))
        defer { lo_server_free(server) }
        return UInt16(lo_server_get_port(server))
    }

    /// `knoblink dump [options] 0`, once it has printed the port it bound.
    static func knoblinkDump(_ options: [String] = []) throws -> (process: RunningProcess, port: UInt16) {
        let process = try RunningProcess(Tool.knoblink, ["dump"] + options + ["0"])
        try #require(process.wait { $0.stderr.contains("\n") }, "knoblink dump did not start: \(process.stderr)")
        let port = try #require(
            process.stderr.split(separator: "\n").first.flatMap { $0.split(separator: " ").last }.flatMap {
                UInt16($0)
            })
        return (process, port)
    }

    /// `oscdump -L PORT` (or its TCP URL), given the time to bind: it prints nothing when ready.
    static func oscdump(tcp: Bool = false) throws -> (process: RunningProcess, port: UInt16) {
        let port = try freePort(tcp: tcp)
        let process = try RunningProcess(Tool.system("oscdump"), ["-L", tcp ? "osc.tcp://:\(port)" : "\(port)"])
        Thread.sleep(forTimeInterval: 0.3)
        return (process, port)
    }

    /// A python-osc server that prints `ADDRESS [ARGS]` (Python's repr) for every message, on
    /// UDP or on TCP in mode "1.0" (length prefix) or "1.1" (SLIP).
    static func pythonServer(_ transport: String, mode: String = "") throws -> (process: RunningProcess, port: UInt16) {
        let script = """
            import sys
            from pythonosc.dispatcher import Dispatcher
            d = Dispatcher()
            d.set_default_handler(lambda addr, *args: print(addr, repr(list(args)), flush=True))
            if sys.argv[1] == 'udp':
                from pythonosc.osc_server import BlockingOSCUDPServer
                s = BlockingOSCUDPServer(('127.0.0.1', 0), d)
            else:
                from pythonosc.osc_tcp_server import ThreadingOSCTCPServer
                s = ThreadingOSCTCPServer(('127.0.0.1', 0), d, mode=sys.argv[2])
            print('PORT', s.server_address[1], flush=True)
            s.serve_forever()
            """
        let process = try RunningProcess(Tool.system("python3"), ["-c", script, transport, mode])
        try #require(process.wait { $0.stdout.contains("\n") }, "python-osc did not start: \(process.stderr)")
        let port = try #require(process.stdout.split(separator: "\n").first.flatMap { UInt16($0.dropFirst(5)) })
        return (process, port)
    }

    /// Runs a python3 script with `pythonosc` and raw sockets at hand, passing it the port.
    static func python(_ script: String, port: UInt16) throws {
        let prelude = """
            import socket, struct, sys, time
            port = int(sys.argv[1])
            def s(x):
                b = x.encode() + b'\\0'
                return b + b'\\0' * ((4 - len(b) % 4) % 4)
            def blob(b):
                return struct.pack('>i', len(b)) + b + b'\\0' * ((4 - len(b) % 4) % 4)
            def msg(addr, tags, *args):
                return s(addr) + s(',' + tags) + b''.join(args)
            def bundle(tt, *elems):
                return s('#bundle') + struct.pack('>Q', tt) + b''.join(struct.pack('>i', len(e)) + e for e in elems)
            def udp(*packets):
                sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                for p in packets:
                    sock.sendto(p, ('127.0.0.1', port))
                    time.sleep(0.01)

            """
        let result = try Tool.run(Tool.system("python3"), ["-c", prelude + script, "\(port)"])
        #expect(result.status == 0, "python failed: \(result.stderr)")
    }

    /// The lines printed so far, without the time tag column (for messages sent "immediately",
    /// whose time tag is the time of arrival).
    static func withoutTimeTags(_ text: String) -> [String] {
        lines(text).map { String($0.dropFirst(18)) }
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Waits until `process` has printed `count` lines on stdout.
    @discardableResult
    static func waitForLines(_ process: RunningProcess, _ count: Int, timeout: Duration = .seconds(5)) -> Bool {
        process.wait(timeout: timeout) { lines($0.stdout).count >= count }
    }
}
