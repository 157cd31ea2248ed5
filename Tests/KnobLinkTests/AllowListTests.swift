import OSCTransport
import Testing

@testable import KnobLink

@Suite struct AllowListTests {
    @Test(arguments: [
        ("127.0.0.1", true), ("127.200.3.4", true), ("::1", true), ("10.1.2.3", true),
        ("172.16.0.1", true), ("172.31.255.254", true), ("172.32.0.1", false), ("172.15.255.255", false),
        ("192.168.0.10", true), ("192.169.0.1", false), ("169.254.7.7", true), ("169.253.0.1", false),
        ("fc00::1", true), ("fdff:ffff::1", true), ("fe80::1", true), ("fe80::1%1", true),
        ("8.8.8.8", false), ("2001:db8::1", false), ("::2", false), ("fec0::1", false),
        ("::ffff:192.168.1.1", true), ("::ffff:127.0.0.1", true), ("::ffff:8.8.8.8", false),
    ])
    func privateRanges(host: String, expected: Bool) throws {
        let address = try #require(OSCSocketAddress(numericHost: host, port: 1234))
        #expect(AllowList.privateRanges.contains(address) == expected)
    }

    @Test func privateRangesPrintTheirBlocks() {
        let expected = [
            "127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "fc00::/7",
            "fe80::/10",
        ]
        #expect(AllowList.privateRanges.description == expected.joined(separator: ", "))
    }

    @Test func allowReplacesTheDefaults() throws {
        let list = try AllowList(parsing: ["203.0.113.0/24", "2001:db8::/32"])
        #expect(!list.allowsAny)
        #expect(list.contains(try #require(OSCSocketAddress(numericHost: "203.0.113.77", port: 1))))
        #expect(list.contains(try #require(OSCSocketAddress(numericHost: "2001:db8:1::5", port: 1))))
        #expect(!list.contains(try #require(OSCSocketAddress(numericHost: "127.0.0.1", port: 1))))
    }

    @Test(arguments: ["any", "ANY", "Any"])
    func anyOpensTheList(text: String) throws {
        let list = try AllowList(parsing: ["10.0.0.0/8", text])
        #expect(list.allowsAny)
        #expect(list.description == "any")
        #expect(list.contains(try #require(OSCSocketAddress(numericHost: "8.8.8.8", port: 1))))
        #expect(list.contains(try #require(OSCSocketAddress(numericHost: "2001:db8::1", port: 1))))
        #expect(AllowList.any.contains(try #require(OSCSocketAddress(numericHost: "1.1.1.1", port: 1))))
    }

    @Test func emptyListAcceptsNothing() throws {
        let list = AllowList([])
        #expect(!list.contains(try #require(OSCSocketAddress(numericHost: "127.0.0.1", port: 1))))
    }

    @Test func badTextIsReported() {
        #expect(throws: CIDRError.invalidPrefixLength("10.0.0.0/40", maximum: 32)) {
            try AllowList(parsing: ["127.0.0.1", "10.0.0.0/40"])
        }
        #expect(throws: CIDRError.empty) { try AllowList(parsing: [""]) }
    }
}
