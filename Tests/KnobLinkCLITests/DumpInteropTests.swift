import Foundation
import Testing

/// `knoblink dump` against real senders: it must print what `oscdump` prints for the same input.
@Suite(.serialized, .offThePool) struct DumpInteropTests {
    /// One message per type `oscsend` supports, and the corner cases of their printing.
    static let oscsendArguments: [[String]] = [
        ["/a", "iTfs", "1", "3.14", "hello"],
        ["/all", "ihfdsScmTFNI", "-5", "1234567890123", "0.1", "0.1", "a b", "sym", "x", "0a0b0c0d"],
        ["/empty"],
        ["/i", "i", "-2147483648"],
        ["/h", "h", "9223372036854775807"],
        ["/f", "ffff", "1e20", "1e-7", "-0", "123456.789"],
        ["/f", "fff", "nan", "inf", "-inf"],
        ["/d", "ddd", "123456789.123456789", "1e300", "-nan"],
        ["/s", "ss", "", "tab\there \"q\" \\ é"],
        ["/S", "S", "symbol"],
        ["/c", "cc", "", "Z"],
        ["/m", "m", "1"],
        ["/T", "TFNI"],
    ]

    @Test func oscsendIsPrintedAsOscdumpPrintsIt() throws {
        let (dump, dumpPort) = try Peers.knoblinkDump()
        let (reference, referencePort) = try Peers.oscdump()
        for arguments in Self.oscsendArguments {
            for port in [dumpPort, referencePort] {
                let result = try Tool.run(Tool.system("oscsend"), ["127.0.0.1", "\(port)"] + arguments)
                try #require(result.status == 0, "oscsend \(arguments): \(result.stderr)")
            }
        }
        let count = Self.oscsendArguments.count
        #expect(Peers.waitForLines(dump, count) && Peers.waitForLines(reference, count))
        #expect(Peers.lines(dump.stdout).count == count)
        #expect(Peers.withoutTimeTags(dump.stdout) == Peers.withoutTimeTags(reference.stdout))
        #expect(dump.terminate() == 0)
        reference.stop()
    }

    /// An "immediately" message carries the current time, as oscdump prints it.
    @Test func immediateTimeTagIsTheTimeOfArrival() throws {
        let (dump, port) = try Peers.knoblinkDump()
        _ = try Tool.run(Tool.system("oscsend"), ["127.0.0.1", "\(port)", "/now"])
        #expect(Peers.waitForLines(dump, 1))
        let line = try #require(Peers.lines(dump.stdout).first)
        let seconds = try #require(UInt32(line.prefix(8), radix: 16))
        let now = Date().timeIntervalSince1970 + 2_208_988_800
        #expect(abs(Double(seconds) - now) < 30)
        #expect(line.dropFirst(8).first == ".")
        #expect(line.dropFirst(17) == " /now ")
        #expect(dump.terminate() == 0)
    }

    /// Bundles (nested, immediate, past), blobs and time tag arguments, which oscsend cannot send.
    static let rawPackets = """
        udp(
            msg('/blob', 'b', blob(b'\\x00\\x10\\x01')),
            msg('/blob0', 'b', blob(b'')),
            msg('/blob12', 'b', blob(bytes(range(12)))),
            msg('/blob13', 'b', blob(bytes(range(13)))),
            msg('/tt', 't', struct.pack('>Q', 0x0000000100000002)),
            msg('/c', 'c', struct.pack('>i', 0x4142)),
            bundle(1, msg('/in1', 'i', struct.pack('>i', 1)), msg('/in2', '')),
            bundle(0x0000000500000006, msg('/past', 'i', struct.pack('>i', 1))),
            bundle(0x0000000500000006, bundle(0x0000000700000008, msg('/nested', 'f', struct.pack('>f', 1.5))),
                   msg('/after', 's', s('x'))),
            bundle(1),
            msg('/last', 'i', struct.pack('>i', 42)))
        """

    @Test func bundlesBlobsAndTimeTagsArePrintedAsOscdumpPrintsThem() throws {
        let (dump, dumpPort) = try Peers.knoblinkDump()
        let (reference, referencePort) = try Peers.oscdump()
        try Peers.python(Self.rawPackets, port: dumpPort)
        try Peers.python(Self.rawPackets, port: referencePort)
        #expect(Peers.waitForLines(dump, 12) && Peers.waitForLines(reference, 12))
        let lines = Peers.lines(dump.stdout)
        let expected = Peers.lines(reference.stdout)
        #expect(lines.count == 12)
        #expect(lines.map { $0.dropFirst(18) } == expected.map { $0.dropFirst(18) })
        // Messages of timed bundles carry the bundle's time tag, the others the time of arrival.
        #expect(lines.filter { $0.hasPrefix("0000000") } == expected.filter { $0.hasPrefix("0000000") })
        #expect(lines.filter { $0.hasPrefix("0000000") }.count == 3)
        // The messages of one immediate bundle share one time tag.
        #expect(lines[6].prefix(17) == lines[7].prefix(17))
        #expect(dump.terminate() == 0)
        reference.stop()
    }

    /// A string or symbol that is not valid UTF-8 is printed byte for byte, as oscdump prints
    /// it (it once came out with U+FFFD in place of the bad bytes). The lines are compared as
    /// bytes: as Swift strings both would read the same.
    @Test func invalidUTF8IsPrintedByteForByte() throws {
        let (dump, dumpPort) = try Peers.knoblinkDump()
        let (reference, referencePort) = try Peers.oscdump()
        let packets = """
            udp(msg('/utf', 'sSi', b'a\\xffb\\xc3(\\0\\0\\0', b'\\xe9t\\xe9\\0', struct.pack('>i', 3)),
                bundle(1, msg('/in/bundle', 's', b'\\x80\\0\\0\\0')))
            """
        try Peers.python(packets, port: dumpPort)
        try Peers.python(packets, port: referencePort)
        #expect(Peers.waitForLines(dump, 2) && Peers.waitForLines(reference, 2))
        let withoutTimeTags = { (bytes: [UInt8]) in
            bytes.split(separator: UInt8(ascii: "\n")).map { Array($0.dropFirst(18)) }
        }
        let lines = withoutTimeTags(dump.stdoutBytes)
        #expect(lines.count == 2)
        #expect(
            lines.first == Array("/utf sSi \"a".utf8) + [0xFF, 0x62, 0xC3, 0x28] + Array("\" '".utf8) + [
                0xE9, 0x74, 0xE9,
            ] + Array(" 3".utf8))
        #expect(lines == withoutTimeTags(reference.stdoutBytes))
        #expect(dump.terminate() == 0)
        reference.stop()
    }

    /// `-r` keeps the bytes of a string that is not valid UTF-8, as `oscdump -r` does.
    @Test func rawOutputKeepsInvalidUTF8() throws {
        let packet = """
            udp(msg('/utf', 'sSb', b'a\\xffb\\xc3(\\0\\0\\0', b'\\xe9t\\xe9\\0', blob(b'\\xff')))
            """
        // 8 for the address and 8 for the tags, 8 and 4 for the strings, 8 for the blob.
        let (dump, reference) = try Self.rawOutputs(count: 36) { port in try Peers.python(packet, port: port) }
        #expect(dump.count == 36)
        #expect(dump == reference)
    }

    @Test func malformedPacketIsReportedAndTheDumpGoesOn() throws {
        let (dump, port) = try Peers.knoblinkDump(["--hex"])
        try Peers.python(
            """
            udp(b'/x\\0\\0,q\\0\\0', b'/x', msg('/ok', 'i', struct.pack('>i', 7)))
            """, port: port)
        #expect(Peers.waitForLines(dump, 2))
        let lines = Peers.lines(dump.stdout)
        #expect(lines.count == 2)
        #expect(lines.first?.dropFirst(18) == "/ok i 7")
        #expect(lines.last == "    0000  2f 6f 6b 00 2c 69 00 00 00 00 00 07              /ok.,i......")
        let errors = dump.stderr.split(separator: "\n").dropFirst().map { $0.replacing(/:\d+ \(/, with: ":_ (") }
        #expect(
            errors == [
                "Error: malformed packet from 127.0.0.1:_ (8 bytes): unknown type tag 'q' at byte 5",
                "    0000  2f 78 00 00 2c 71 00 00                          /x..,q..",
                "Error: malformed packet from 127.0.0.1:_ (2 bytes): size 2 is not a multiple of 4 at byte 0",
                "    0000  2f 78                                            /x",
            ])
        #expect(dump.terminate() == 0)
    }

    @Test func futureBundleIsPrintedWhenDueInItsOrder() throws {
        let (dump, port) = try Peers.knoblinkDump()
        let (eager, eagerPort) = try Peers.knoblinkDump(["--no-delay"])
        let script = """
            tt = int((time.time() + 2208988800 + 3.0) * 2**32)
            later = [msg('/later/%d' % n, '') for n in range(8)]
            udp(bundle(tt, *later), msg('/now', ''))
            """
        let later = (0..<8).map { "/later/\($0) " }
        // Three seconds ahead: the two Python peers and the eager dump's lines must all have come
        // before the bundle is due, even on a loaded machine (one second was not always enough).
        try Peers.python(script, port: port)
        try Peers.python(script, port: eagerPort)
        #expect(Peers.waitForLines(eager, 9))
        #expect(Peers.withoutTimeTags(eager.stdout) == later + ["/now "])
        #expect(Peers.waitForLines(dump, 1))
        #expect(Peers.withoutTimeTags(dump.stdout) == ["/now "])
        #expect(Peers.waitForLines(dump, 9, timeout: .seconds(6)))
        #expect(Peers.withoutTimeTags(dump.stdout) == ["/now "] + later)
        // The delayed lines carry the bundle's time tag, three seconds after the time of arrival.
        let times = Peers.lines(dump.stdout).map { line in
            Double(UInt32(line.prefix(8), radix: 16) ?? 0) + Double(UInt32(line.dropFirst(9).prefix(8), radix: 16) ?? 0)
                / 0x1_0000_0000
        }
        #expect(times.count == 9 && abs(times[1] - times[0] - 3) < 0.2 && Set(times.dropFirst()).count == 1)
        #expect(dump.terminate() == 0)
        #expect(eager.terminate() == 0)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func signalEndsTheDumpCleanly(signal: Int32) throws {
        let (dump, _) = try Peers.knoblinkDump()
        #expect(dump.isRunning)
        #expect((signal == SIGINT ? dump.interrupt() : dump.terminate()) == 0)
    }

    @Test func portInUseIsARunTimeFailure() throws {
        let (dump, port) = try Peers.knoblinkDump()
        let taken = try RunningProcess(Tool.knoblink, ["dump", "osc.udp://:\(port)"])
        #expect(taken.waitForExit() == 1)
        #expect(taken.stderr.hasPrefix("Error: could not listen on UDP port \(port): "))
        #expect(dump.terminate() == 0)
    }

    static let pythonClient = """
        from pythonosc.udp_client import SimpleUDPClient
        from pythonosc.tcp_client import SimpleTCPClient
        kind = sys.argv[2]
        if kind == 'udp':
            c = SimpleUDPClient('127.0.0.1', port)
        else:
            c = SimpleTCPClient('127.0.0.1', port, mode=kind)
        c.send_message('/py', [1, 2.5, 'x y', b'\\x01\\x02', True, False, None])
        c.send_message('/py/empty', [])
        if kind != 'udp':
            c.close()
        """

    @Test(arguments: ["udp", "1.0", "1.1"])
    func pythonOSCClientIsPrinted(kind: String) throws {
        let (dump, port) = try Peers.knoblinkDump(kind == "udp" ? [] : ["--tcp"])
        let result = try Tool.run(
            Tool.system("python3"),
            ["-c", "import sys\nport = int(sys.argv[1])\n" + Self.pythonClient, "\(port)", kind])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Peers.waitForLines(dump, 2))
        #expect(
            Peers.withoutTimeTags(dump.stdout) == [
                #"/py ifsbTFN 1 2.500000 "x y" [2b 0x1 0x2] #T #F Nil"#, "/py/empty ",
            ])
        #expect(Peers.lines(dump.stderr).count == 1)
        #expect(dump.terminate() == 0)
    }

    @Test func oscsendOverTCPIsPrintedAsOscdumpPrintsIt() throws {
        let (dump, dumpPort) = try Peers.knoblinkDump(["--tcp"])
        let (reference, referencePort) = try Peers.oscdump(tcp: true)
        for arguments in Self.oscsendArguments.prefix(3) {
            for port in [dumpPort, referencePort] {
                let result = try Tool.run(Tool.system("oscsend"), ["osc.tcp://127.0.0.1:\(port)"] + arguments)
                try #require(result.status == 0, "oscsend \(arguments): \(result.stderr)")
            }
        }
        #expect(Peers.waitForLines(dump, 3) && Peers.waitForLines(reference, 3))
        #expect(Peers.withoutTimeTags(dump.stdout) == Peers.withoutTimeTags(reference.stdout))
        #expect(dump.terminate() == 0)
        reference.stop()
    }

    /// `-r` writes each message's bytes, those of a bundle one by one, as `oscdump -r` does.
    @Test func rawOutputIsOscdumpsRawOutput() throws {
        // 64 bytes from oscsend, 12 and 16 from the bundle.
        let (dump, reference) = try Self.rawOutputs(count: 92) { target in
            _ = try Tool.run(Tool.system("oscsend"), ["127.0.0.1", "\(target)"] + Self.oscsendArguments[1])
            try Peers.python(
                """
                udp(bundle(1, msg('/b', 'i', struct.pack('>i', 2)), msg('/c', 'b', blob(b'\\x07'))))
                """, port: target)
        }
        #expect(dump.count == 92)
        #expect(dump == reference)
    }

    /// What `knoblink dump -r` and `oscdump -r` write for what `send` sends to each of their
    /// ports, once both have `count` bytes (or the wait is over).
    static func rawOutputs(count: Int, _ send: (UInt16) throws -> Void) throws -> (dump: [UInt8], reference: [UInt8]) {
        let (dump, dumpPort) = try Peers.knoblinkDump(["-r"])
        let port = try Peers.freePort()
        let reference = try RunningProcess(Tool.system("oscdump"), ["-r", "\(port)"])
        Thread.sleep(forTimeInterval: 0.3)
        for target in [dumpPort, port] { try send(target) }
        #expect(dump.wait { $0.stdoutBytes.count >= count } && reference.wait { $0.stdoutBytes.count >= count })
        reference.stop()
        #expect(dump.terminate() == 0)
        return (dump.stdoutBytes, reference.stdoutBytes)
    }
}
