import CLibLO
import OSCTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct OSCURLTests {
    static func libloURL(_ transport: OSCURL.Transport, host: String, port: UInt16) -> String? {
        guard let address = lo_address_new_with_proto(transport == .udp ? LO_UDP : LO_TCP, host, String(port)) else {
            return nil
        }
        defer { lo_address_free(address) }
        guard let text = lo_address_get_url(address) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }

    static func take(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    @Test(arguments: [
        (OSCURL.Transport.udp, "127.0.0.1", UInt16(8000)), (.tcp, "127.0.0.1", 9000), (.udp, "::1", 7000),
        (.tcp, "fe80::1", 1), (.udp, "localhost", 65535), (.tcp, "example.org", 0),
    ])
    func formatsLikeLiblo(transport: OSCURL.Transport, host: String, port: UInt16) throws {
        let ours = OSCURL(transport: transport, host: host, port: port).description
        #expect(ours == Self.libloURL(transport, host: host, port: port))
    }

    @Test(arguments: [
        "osc.udp://127.0.0.1:8000/", "osc.tcp://[::1]:7000/", "osc://1.2.3.4:5/", "osc.udp://host:12/path",
        "osc.udp://localhost:9000", "osc.tcp://Host.Example:65535/",
    ])
    func parsesLikeLiblo(text: String) throws {
        let url = try OSCURL.parse(text)
        #expect(url.transport.rawValue == Self.take(lo_url_get_protocol(text)))
        #expect(url.host == Self.take(lo_url_get_hostname(text)))
        #expect(String(url.port) == Self.take(lo_url_get_port(text)))
        // Written back, the URL is what liblo writes for the address it parses.
        let address = try #require(lo_address_new_from_url(text))
        defer { lo_address_free(address) }
        #expect(url.description == Self.take(lo_address_get_url(address)))
    }

    @Test func emptyHostMeansLocalhost() throws {
        #expect(try OSCURL.parse("osc.udp://:8000/") == OSCURL(transport: .udp, host: "localhost", port: 8000))
    }

    @Test(arguments: [
        "http://a:1/", "osc.udp://a/", "osc.udp://a:x/", "osc.udp://a:70000/", "osc.udp://::1:80/",
        "osc.udp://[::1/", "osc.unix:///tmp/s", "8000",
    ])
    func refusesWhatIsNotAnOSCURL(text: String) {
        #expect(throws: OSCSocketAddressError.self) { try OSCURL.parse(text) }
        #expect(OSCURL(text) == nil)
    }

    @Test func resolvesNumericHostsWithoutLookUp() throws {
        let v4 = try #require(OSCSocketAddress(numericHost: "127.0.0.1", port: 8000))
        #expect(v4.family == .ipv4 && v4.port == 8000 && v4.isLoopback)
        #expect(v4.description == "127.0.0.1:8000")
        let v6 = try #require(OSCSocketAddress(numericHost: "[::1]", port: 9000))
        #expect(v6.family == .ipv6 && v6.isLoopback)
        #expect(v6.description == "[::1]:9000")
        #expect(OSCURL(transport: .udp, address: v6).description == "osc.udp://[::1]:9000/")
        #expect(OSCSocketAddress(numericHost: "localhost", port: 1) == nil)
        #expect(OSCSocketAddress(numericHost: "239.1.2.3", port: 1)?.isMulticast == true)
        #expect(try OSCURL.parse("osc.udp://localhost:5/").resolve().first?.isLoopback == true)
    }
}
