import OSCTransport
import Testing

@testable import KnobLink

@Suite struct CIDRTests {
    @Test(arguments: [
        ("10.0.0.0/8", "10.0.0.0/8"),
        ("10/8", "10.0.0.0/8"),
        ("172.16/12", "172.16.0.0/12"),
        ("10.1.2.3/8", "10.0.0.0/8"),
        ("192.168.1.7", "192.168.1.7/32"),
        ("0.0.0.0/0", "0.0.0.0/0"),
        (" 127.0.0.1/8 ", "127.0.0.0/8"),
        ("::1", "::1/128"),
        ("::/0", "::/0"),
        ("fe80::/10", "fe80::/10"),
        ("FE80::1:2/64", "fe80::/64"),
        ("fc00::/7", "fc00::/7"),
        ("2001:db8:0:0:1:0:0:1/128", "2001:db8::1:0:0:1/128"),
        ("[::ffff:10.0.0.0]/104", "::ffff:a00:0/104"),
        ("1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8/128"),
    ])
    func parsesAndPrints(text: String, expected: String) throws {
        #expect(try CIDR(parsing: text).description == expected)
    }

    @Test(arguments: [
        ("", CIDRError.empty),
        ("10.0.0.256/8", .invalidAddress("10.0.0.256/8", reason: "octet '256' is larger than 255")),
        ("10.0.0/8x", .invalidPrefixLength("10.0.0/8x", maximum: 32)),
        ("10.0.0.0/33", .invalidPrefixLength("10.0.0.0/33", maximum: 32)),
        ("10.0.0.0/", .invalidPrefixLength("10.0.0.0/", maximum: 32)),
        ("::/129", .invalidPrefixLength("::/129", maximum: 128)),
        ("10.0.0", .invalidAddress("10.0.0", reason: "an IPv4 address has four octets separated by '.'")),
        ("1.2.3.4.5/8", .invalidAddress("1.2.3.4.5/8", reason: "an IPv4 address has four octets separated by '.'")),
        ("10..0.1", .invalidAddress("10..0.1", reason: "octet '' is not a number from 0 to 255")),
        ("-1.0.0.0/8", .invalidAddress("-1.0.0.0/8", reason: "octet '-1' is not a number from 0 to 255")),
        ("localhost", .invalidAddress("localhost", reason: "an IPv4 address has four octets separated by '.'")),
        ("1::2::3", .invalidAddress("1::2::3", reason: "'::' may appear only once")),
        ("fe80::1%eth0", .invalidAddress("fe80::1%eth0", reason: "a zone ('%…') is not allowed in an allow-list")),
        ("12345::", .invalidAddress("12345::", reason: "group '12345' is not 1 to 4 hexadecimal digits")),
        ("g::1", .invalidAddress("g::1", reason: "group 'g' is not 1 to 4 hexadecimal digits")),
        ("1:2:3:4:5:6:7", .invalidAddress("1:2:3:4:5:6:7", reason: "an IPv6 address has eight groups (or '::')")),
        ("1:2:3:4::5:6:7:8", .invalidAddress("1:2:3:4::5:6:7:8", reason: "too many groups around '::'")),
        ("1:::2", .invalidAddress("1:::2", reason: "empty group (a single ':' where '::' was meant?)")),
    ])
    func refusesBadText(text: String, expected: CIDRError) {
        #expect(throws: expected) { try CIDR(parsing: text) }
    }

    @Test func errorTextNamesTheInput() {
        let error = CIDRError.invalidAddress("10.0.0.256", reason: "octet '256' is larger than 255")
        #expect(error.description == "'10.0.0.256': octet '256' is larger than 255")
        #expect(CIDRError.invalidPrefixLength("::/200", maximum: 128).description.contains("0 to 128"))
    }

    @Test(arguments: [
        ("10.0.0.0/8", "10.255.1.2", true),
        ("10.0.0.0/8", "11.0.0.1", false),
        ("172.16.0.0/12", "172.31.255.255", true),
        ("172.16.0.0/12", "172.32.0.0", false),
        ("0.0.0.0/0", "203.0.113.9", true),
        ("0.0.0.0/0", "2001:db8::1", false),
        ("10.0.0.0/8", "::ffff:10.9.9.9", true),
        ("10.0.0.0/8", "::ffff:11.9.9.9", false),
        ("::ffff:0:0/96", "8.8.8.8", true),
        ("::/0", "8.8.8.8", true),
        ("fe80::/10", "fe80::1234", true),
        ("fe80::/10", "febf::1", true),
        ("fe80::/10", "fec0::1", false),
        ("fc00::/7", "fd12:3456::1", true),
        ("::1", "::1", true),
        ("::1", "::2", false),
        ("192.168.1.7", "192.168.1.7", true),
        ("192.168.1.7", "192.168.1.8", false),
    ])
    func containsAddresses(block: String, host: String, expected: Bool) throws {
        let address = try #require(OSCSocketAddress(numericHost: host, port: 9000))
        #expect(try CIDR(parsing: block).contains(address) == expected)
    }

    @Test func refusesImpossibleBytes() {
        #expect(CIDR(addressBytes: [1, 2, 3], prefixLength: 8) == nil)
        #expect(CIDR(addressBytes: [1, 2, 3, 4], prefixLength: 33) == nil)
        #expect(CIDR(addressBytes: [1, 2, 3, 4], prefixLength: -1) == nil)
        #expect(CIDR(addressBytes: [10, 0, 0, 0], prefixLength: 8)?.contains(addressBytes: [10, 0]) == false)
    }
}
