import Foundation
import Testing
import Zeroconf

/// ``ZeroconfAdvertiser`` on a machine without a D-Bus system bus, and so without any way to
/// reach an Avahi daemon.
///
/// In a child process (an exit test), because the bus address comes from the environment, which
/// the test must not change for the other tests of the process.
@Suite struct ZeroconfWithoutDBusTests {
    @Test func startLogsOneLineAndLeavesNothingRunning() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/knoblink-zeroconf-test", 1)
            let advertiser = ZeroconfAdvertiser(
                name: "Nobody", services: [.osc(port: 9000), .oscQuery(port: 8000)],
                log: { _, message in FileHandle.standardError.write(Data("\(message)\n".utf8)) })
            let began = ContinuousClock.now
            advertiser.start()
            let took = ContinuousClock.now - began
            advertiser.stop()
            // Nothing to reach, so nothing loaded: libavahi-client and libdbus stay out of the process.
            let maps = try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd()
            let mapped = maps.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let loaded = !mapped.contains("[stack]") || mapped.contains("libavahi-client") || mapped.contains("libdbus")
            exit(!advertiser.isRunning && took < .seconds(2) && !loaded ? 0 : 1)
        }
        let output = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        let lines = output.split(separator: "\n").filter { $0.contains("zeroconf") }
        #expect(lines.count == 1, "\(output)")
        #expect(lines.first?.contains("zeroconf off: no Avahi daemon runs") == true, "\(output)")
        #expect(
            lines.first?.contains("no D-Bus system bus at /nonexistent/knoblink-zeroconf-test: No such file") == true,
            "\(output)")
    }
}
