import BenchHarness
import CBenchPeer
import OSCCore

/// Dispatch to a table of 100 methods `/knob/p0` … `/knob/p99` (type spec `f`), from the bytes of
/// one message: `/knob/p50` (an exact address), `/knob/p99` (the last one registered) or the
/// pattern `/knob/p1*` (11 methods).
struct DispatchScenario {
    let address: String
    let bytes: [UInt8]

    init(_ address: String) {
        self.address = address
        bytes = OSCMessage(address, [.float32(0.5)]).encoded()
    }

    /// What the handlers saw; a class of its own so that handlers hold it strongly (an `unowned`
    /// capture of the table would cost a reference-count check on every call).
    final class Tally {
        var calls = 0
        var sum: Float = 0
    }

    /// The table and a counter of handler calls, built once.
    final class Table {
        let dispatcher = OSCDispatcher()
        let tally = Tally()
        var calls: Int { tally.calls }

        init() {
            let tally = tally
            for index in 0..<100 {
                try! dispatcher.register("/knob/p\(index)", typeSpec: "f") { message in
                    tally.calls += 1
                    tally.sum += message.float(at: 0)!
                }
            }
        }
    }

    /// KnobLink, bytes to handlers: `OSCMessageView` (validation) then `OSCDispatcher.dispatch`.
    func endToEnd(_ table: Table) -> Contender {
        let bytes = bytes
        return Contender("KnobLink") { iterations in
            bytes.withUnsafeBytes { packet in
                let start = cpuNanoseconds()
                for _ in 0..<iterations {
                    _ = try! table.dispatcher.dispatch(try! OSCMessageView(packet))
                }
                return cpuNanoseconds() - start
            }
        }
    }

    /// A server's context: the sender (a class reference) and where errors go (an optional).
    struct Request {
        let sender: Tally
        let errorDestination: Int?
    }

    /// The same table with handlers that take a ``Request``, as the server registers its methods.
    final class ContextTable {
        let dispatcher = OSCDispatcher()
        let tally = Tally()

        init() {
            let tally = tally
            for index in 0..<100 {
                try! dispatcher.register("/knob/p\(index)", typeSpec: "f", context: Request.self) { message, request in
                    tally.calls += 1
                    tally.sum += message.float(at: 0)! + Float(request.errorDestination ?? 0)
                }
            }
        }
    }

    /// KnobLink, bytes to handlers that take a context: a ``Request`` made per message, as the
    /// server makes one in `deliver`.
    func endToEndWithContext(_ table: ContextTable) -> Contender {
        let bytes = bytes
        let sender = Tally()
        return Contender("KnobLink, context") { iterations in
            bytes.withUnsafeBytes { packet in
                let start = cpuNanoseconds()
                for _ in 0..<iterations {
                    let request = Request(sender: sender, errorDestination: nil)
                    _ = try! table.dispatcher.dispatch(try! OSCMessageView(packet), context: request)
                }
                return cpuNanoseconds() - start
            }
        }
    }

    /// KnobLink, dispatch alone: the view is made once, outside the timed loop.
    func dispatchOnly(_ table: Table) -> Contender {
        let bytes = bytes
        return Contender("KnobLink dispatch") { iterations in
            bytes.withUnsafeBytes { packet in
                let view = try! OSCMessageView(packet)
                let start = cpuNanoseconds()
                for _ in 0..<iterations {
                    _ = try! table.dispatcher.dispatch(view)
                }
                return cpuNanoseconds() - start
            }
        }
    }

    /// KnobLink, decoding alone: `OSCMessageView` and the float read.
    func decodeOnly() -> Contender {
        let bytes = bytes
        return Contender("KnobLink decode") { iterations in
            bytes.withUnsafeBytes { packet in
                var sum: Float = 0
                let start = cpuNanoseconds()
                for _ in 0..<iterations {
                    sum += try! OSCMessageView(packet).float(at: 0)!
                }
                let elapsed = cpuNanoseconds() - start
                blackHole(sum)
                return elapsed
            }
        }
    }

    /// liblo, bytes to handlers: `lo_server_dispatch_data` (it deserialises, then walks its methods).
    func libloEndToEnd(_ server: UnsafeMutableRawPointer) -> Contender {
        let bytes = bytes
        return Contender("liblo") { iterations in
            var calls = 0
            return kb_lo_dispatch(server, bytes, bytes.count, iterations, &calls)
        }
    }

    /// liblo, decoding alone: `lo_message_deserialise`, the float read, `lo_message_free`.
    func libloDecodeOnly() -> Contender {
        let bytes = bytes
        return Contender("liblo decode") { iterations in
            var sink: UInt64 = 0
            let elapsed = kb_lo_decode_bytes(bytes, bytes.count, iterations, &sink)
            blackHole(sink)
            return elapsed
        }
    }

    /// How many handlers one message reaches on each side (they must agree).
    func handlerCounts(_ table: Table, _ server: UnsafeMutableRawPointer) -> (knobLink: Int, liblo: Int) {
        let before = table.calls
        _ = endToEnd(table).run(1)
        var calls = 0
        _ = kb_lo_dispatch(server, bytes, bytes.count, 1, &calls)
        return (table.calls - before, calls)
    }
}
