import Foundation
import Testing

/// `knoblink send` against real receivers: `oscdump` must print for it what it prints for
/// `oscsend`, and python-osc must read what it sends.
@Suite(.serialized, .offThePool) struct SendInteropTests {
    /// Sends each argument list with `oscsend` and then with `knoblink send` to one `oscdump`,
    /// and expects each pair of lines to be equal.
    private func expectSameAsOscsend(_ argumentLists: [[String]], tcp: Bool) throws {
        let (reference, port) = try Peers.oscdump(tcp: tcp)
        let destination = tcp ? ["osc.tcp://127.0.0.1:\(port)"] : ["127.0.0.1", "\(port)"]
        for arguments in argumentLists {
            let oscsend = try Tool.run(Tool.system("oscsend"), destination + arguments)
            try #require(oscsend.status == 0, "oscsend \(arguments): \(oscsend.stderr)")
            let knoblink = try Tool.run(Tool.knoblink, ["send"] + destination + arguments)
            try #require(knoblink.status == 0, "knoblink send \(arguments): \(knoblink.stderr)")
        }
        #expect(Peers.waitForLines(reference, 2 * argumentLists.count))
        let lines = Peers.withoutTimeTags(reference.stdout)
        #expect(lines.count == 2 * argumentLists.count)
        for pair in stride(from: 0, to: lines.count - 1, by: 2) {
            #expect(lines[pair + 1] == lines[pair])
        }
        reference.stop()
    }

    @Test func everyOscsendTypeReachesOscdumpAsFromOscsend() throws {
        try expectSameAsOscsend(DumpInteropTests.oscsendArguments, tcp: false)
    }

    @Test func overTCPWithLengthPrefixAsLibloSpeaksIt() throws {
        try expectSameAsOscsend(Array(DumpInteropTests.oscsendArguments.prefix(4)), tcp: true)
    }

    /// What oscsend cannot send: blobs, time tags, bundles, messages from standard input.
    @Test func blobsBundlesAndStandardInputReachOscdump() throws {
        let (reference, port) = try Peers.oscdump()
        let target = ["send", "127.0.0.1", "\(port)"]
        #expect(
            try Tool.run(Tool.knoblink, target + ["/blob", "bbb", "0x00ff10", "", "0102030405060708090a0b0c0d"]).status
                == 0)
        #expect(try Tool.run(Tool.knoblink, target + ["/tt", "t", "00000001.00000002"]).status == 0)
        let input = """
            /first i 1
            # a comment, then a blank line

            /second s 'two words' 
            /third sb "with \\"quotes\\"" 0aff
            """
        let bundled = try Tool.run(
            Tool.knoblink, ["send", "--time-tag", "00000005.00000006", "127.0.0.1", "\(port)", "-"], input: input)
        #expect(bundled.status == 0, "\(bundled.stderr)")
        let streamed = try Tool.run(Tool.knoblink, target + ["-"], input: input)
        #expect(streamed.status == 0, "\(streamed.stderr)")
        #expect(try Tool.run(Tool.knoblink, target + ["--bundle", "/one", "i", "1"]).status == 0)
        #expect(Peers.waitForLines(reference, 9))
        let lines = Peers.lines(reference.stdout)
        #expect(lines.count == 9)
        #expect(
            lines.map { $0.dropFirst(18) } == [
                "/blob bbb [3b 00 0xff 0x10] [0b ] [13 byte blob]",
                "/tt t 00000001.00000002",
                "/first i 1", #"/second s "two words""#, #"/third sb "with "quotes"" [2b 0xa 0xff]"#,
                "/first i 1", #"/second s "two words""#, #"/third sb "with "quotes"" [2b 0xa 0xff]"#,
                "/one i 1",
            ])
        // The bundle's time tag is on each of its messages; the streamed lines have the time of arrival.
        #expect(lines[2...4].allSatisfy { $0.hasPrefix("00000005.00000006 ") })
        #expect(!lines[5].hasPrefix("00000005"))
        reference.stop()
    }

    @Test func standardInputStreamsManyMessagesInOrder() throws {
        let (reference, port) = try Peers.oscdump()
        let input = (1...200).map { "/n i \($0)\n" }.joined()
        let result = try Tool.run(Tool.knoblink, ["send", "127.0.0.1", "\(port)", "-"], input: input)
        #expect(result.status == 0)
        #expect(Peers.waitForLines(reference, 200))
        #expect(Peers.withoutTimeTags(reference.stdout) == (1...200).map { "/n i \($0)" })
        reference.stop()
    }

    @Test(arguments: [("udp", "", []), ("tcp", "1.0", ["--tcp"]), ("tcp", "1.1", ["--framing", "slip"])])
    func pythonOSCServerReadsWhatIsSent(transport: String, mode: String, options: [String]) throws {
        let (server, port) = try Peers.pythonServer(transport, mode: mode)
        let target = ["send"] + options + ["127.0.0.1", "\(port)"]
        let single = try Tool.run(Tool.knoblink, target + ["/k", "ifsbTFN", "1", "2.5", "a b", "01ff"])
        #expect(single.status == 0, "\(single.stderr)")
        let bundled = try Tool.run(Tool.knoblink, target + ["--bundle", "-"], input: "/l1 i 1\n/l2 s x\n")
        #expect(bundled.status == 0, "\(bundled.stderr)")
        #expect(Peers.waitForLines(server, 4))
        #expect(
            Peers.lines(server.stdout).dropFirst() == [
                #"/k [1, 2.5, 'a b', b'\x01\xff', True, False, None]"#, "/l1 [1]", "/l2 ['x']",
            ])
        server.stop()
    }

    @Test func tcpToAClosedPortIsARunTimeFailure() throws {
        let port = try Peers.freePort(tcp: true)
        let result = try Tool.knoblink("send", "--tcp", "127.0.0.1", "\(port)", "/a")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: could not reach osc.tcp://127.0.0.1:\(port)/: connect("))
    }

    @Test func udpToAClosedPortSucceedsAsOscsendDoes() throws {
        let port = try Peers.freePort()
        let input = (1...3).map { "/n i \($0)\n" }.joined()
        #expect(try Tool.run(Tool.knoblink, ["send", "127.0.0.1", "\(port)", "-"], input: input).status == 0)
    }

    private func bytes(_ executable: URL, _ arguments: [String]) throws -> [UInt8] {
        let process = try RunningProcess(executable, arguments)
        process.closeInput()
        #expect(process.waitForExit() == 0, "\(arguments): \(process.stderr)")
        return process.stdoutBytes
    }

    /// `oscsend -` writes the message's bytes to standard output and `file:///path` to a file;
    /// `knoblink send` writes the same bytes, which pins its encoding to liblo's for every type.
    @Test func standardOutputAndFileGetTheBytesOscsendWrites() throws {
        for arguments in DumpInteropTests.oscsendArguments {
            let expected = try bytes(Tool.system("oscsend"), ["-"] + arguments)
            #expect(try bytes(Tool.knoblink, ["send", "-"] + arguments) == expected, "\(arguments)")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("knoblink-send-\(getpid()).osc").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let arguments = DumpInteropTests.oscsendArguments[1]
        _ = try bytes(Tool.system("oscsend"), ["file://" + path] + arguments)
        let expected = try #require(FileManager.default.contents(atPath: path))
        try FileManager.default.removeItem(atPath: path)
        _ = try bytes(Tool.knoblink, ["send", "file://" + path] + arguments)
        #expect(FileManager.default.contents(atPath: path) == expected)
    }

    /// liblo is built without IPv6 here, so knoblink checks itself: dump listens on both families.
    @Test func ipv6LoopbackAndValuesThatLookLikeOptions() throws {
        let (dump, port) = try Peers.knoblinkDump()
        #expect(try Tool.knoblink("send", "::1", "\(port)", "/v6", "s", "-x").status == 0)
        #expect(try Tool.knoblink("send", "osc.udp://[::1]:\(port)/", "/v6/url", "i", "-5").status == 0)
        #expect(try Tool.knoblink("send", "--", "127.0.0.1", "\(port)", "/v4", "ss", "--help", "-").status == 0)
        #expect(Peers.waitForLines(dump, 3))
        #expect(Peers.withoutTimeTags(dump.stdout) == [#"/v6 s "-x""#, "/v6/url i -5", #"/v4 ss "--help" "-""#])
        #expect(dump.terminate() == 0)
    }

    @Test func multicastGroupReachesDumpAsOscdump() throws {
        let dump = try RunningProcess(Tool.knoblink, ["dump", "osc.udp://224.0.1.9:0"])
        try #require(dump.wait { $0.stderr.contains("\n") }, "\(dump.stderr)")
        let port = try #require(dump.stderr.split(separator: " ").last.flatMap { UInt16($0.dropLast()) })
        let reference = try RunningProcess(Tool.system("oscdump"), ["-L", "osc.udp://224.0.1.9:\(port)"])
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try Tool.knoblink("send", "osc.udp://224.0.1.9:\(port)/", "/group", "i", "1").status == 0)
        #expect(Peers.waitForLines(dump, 1) && Peers.waitForLines(reference, 1))
        #expect(Peers.withoutTimeTags(dump.stdout) == ["/group i 1"])
        #expect(Peers.withoutTimeTags(reference.stdout) == ["/group i 1"])
        reference.stop()
        #expect(dump.terminate() == 0)
    }
}
