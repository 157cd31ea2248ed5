import Testing

@testable import Zeroconf

/// ``ZeroconfAdvertiser`` where Avahi's client library is not installed: `knoblink` no longer
/// links it (CAvahi/shim.h), so the advertiser is where its absence shows.
@Suite struct ZeroconfWithoutLibraryTests {
    @Test func theLibraryOfThisMachineOpensWithEveryFunction() throws {
        let library = try AvahiLibrary.load(AvahiLibrary.fileName).get()
        // A function of libavahi-common, reached through libavahi-client's handle.
        let text = try #require(library.api.strerror(0))
        #expect(String(cString: text) == "OK")
    }

    @Test func aMissingLibraryIsOneLineThatSaysWhatToInstall() {
        let missing = "libavahi-client-not-installed.so.3"
        let lines = LogRecorder()
        let advertiser = ZeroconfAdvertiser(
            name: "Nobody", services: [.osc(port: 9000)], systemBus: { nil }, library: { AvahiLibrary.load(missing) },
            log: lines.log, onEstablished: { _ in })
        advertiser.start()
        #expect(!advertiser.isRunning)
        advertiser.start()
        advertiser.stop()
        let said = lines.messages
        #expect(said.count == 2, "one line per start: \(said)")
        #expect(said.allSatisfy { $0.hasPrefix("zeroconf off: cannot load \(missing) (") }, "\(said)")
        #expect(said.allSatisfy { $0.contains("libavahi-client3") && $0.contains("--no-zeroconf") }, "\(said)")
    }
}
