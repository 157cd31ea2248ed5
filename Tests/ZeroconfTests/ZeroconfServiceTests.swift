import Testing

@testable import Zeroconf

@Suite struct ZeroconfServiceTests {
    @Test func txtversComesFirstThenKeysInByteOrder() {
        let service = ZeroconfService.oscQuery(port: 8000, txt: ["b": "2", "txtvers": "1", "B": "3", "a": ""])
        #expect(service.txtStrings == ["txtvers=1", "B=3", "a=", "b=2"])
    }

    @Test func factoriesSetTheTypeAndTxtvers() {
        #expect(ZeroconfService.osc(port: 9000) == ZeroconfService(kind: .osc, port: 9000, txt: ["txtvers": "1"]))
        #expect(ZeroconfService.oscQuery(port: 8000).kind.rawValue == "_oscjson._tcp")
        #expect(ZeroconfService.osc(port: 9000).kind.rawValue == "_osc._udp")
    }
}
