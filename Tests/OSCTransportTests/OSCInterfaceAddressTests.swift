import OSCTransport
import Testing

/// `OSCInterfaceAddress.all()` lists the machine's interface addresses from `getifaddrs`.
@Suite struct OSCInterfaceAddressTests {
    @Test func listsTheLoopbackAsLoopback() throws {
        let addresses = try OSCInterfaceAddress.all()
        let loopback = try #require(addresses.first { $0.address.host == "127.0.0.1" })
        #expect(loopback.isLoopback)
        #expect(addresses.allSatisfy { $0.address.port == 0 && !$0.interface.isEmpty })
    }

    @Test func linkLocalIsFe80Slash10Only() throws {
        let linkLocal = try #require(OSCSocketAddress(numericHost: "fe80::1", port: 0))
        let global = try #require(OSCSocketAddress(numericHost: "2001:db8::1", port: 0))
        let ipv4 = try #require(OSCSocketAddress(numericHost: "169.254.1.1", port: 0))
        #expect(OSCInterfaceAddress(interface: "eth0", address: linkLocal, isLoopback: false).isLinkLocal)
        #expect(!OSCInterfaceAddress(interface: "eth0", address: global, isLoopback: false).isLinkLocal)
        #expect(!OSCInterfaceAddress(interface: "eth0", address: ipv4, isLoopback: false).isLinkLocal)
    }
}
