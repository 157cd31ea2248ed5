import Foundation
import Testing

@testable import Zeroconf

/// ``SystemBus``: the probe that keeps Avahi's libraries unloaded where no system bus listens,
/// against real Unix sockets in a directory of the test's own.
@Suite struct SystemBusTests {
    @Test func readsTheSocketPathOfEachUnixEntry() {
        #expect(SystemBus.socketPaths(SystemBus.defaultAddress) == ["/run/dbus/system_bus_socket"])
        #expect(SystemBus.socketPaths("unix:path=/tmp/a%20b%2cc,guid=0123abcd") == ["/tmp/a b,c"])
        #expect(SystemBus.socketPaths("unix:path=/one;unix:path=/two") == ["/one", "/two"])
    }

    @Test func leavesEveryOtherAddressToLibdbus() {
        for address in [
            "tcp:host=127.0.0.1,port=4000", "unix:abstract=/tmp/dbus-1", "unix:path=/one;tcp:host=h,port=1",
            "unix:tmpdir=/tmp", "autolaunch:", "unix:path=/bad%zz", "unix:guid=0123", "unix:path",
        ] {
            #expect(SystemBus.socketPaths(address) == nil, "\(address)")
            #expect(SystemBus.unreachableReason(address: address) == nil, "\(address)")
        }
    }

    @Test func aListeningSocketIsReachable() throws {
        try Self.inDirectory { directory in
            let path = directory + "/bus"
            let listener = try Self.listen(path)
            defer { close(listener) }
            #expect(SystemBus.unreachableReason(address: "unix:path=\(path)") == nil)
        }
    }

    @Test func noFileAndNoListenerAreUnreachableAndSayWhy() throws {
        try Self.inDirectory { directory in
            let missing = directory + "/missing"
            let missingReason = try #require(SystemBus.unreachableReason(address: "unix:path=\(missing)"))
            #expect(missingReason == "no D-Bus system bus at \(missing): No such file or directory")

            // A socket file whose listener has gone, as a bus that stopped leaves behind.
            let stale = directory + "/stale"
            close(try Self.listen(stale))
            #expect(FileManager.default.fileExists(atPath: stale))
            let staleReason = try #require(
                SystemBus.unreachableReason(address: "unix:path=\(missing);unix:path=\(stale)"))
            #expect(staleReason.contains("\(missing): No such file or directory"), "\(staleReason)")
            #expect(staleReason.contains("\(stale): Connection refused"), "\(staleReason)")
        }
    }

    @Test func oneListeningEntryOfSeveralIsEnough() throws {
        try Self.inDirectory { directory in
            let path = directory + "/bus"
            let listener = try Self.listen(path)
            defer { close(listener) }
            #expect(SystemBus.unreachableReason(address: "unix:path=\(directory)/none;unix:path=\(path)") == nil)
        }
    }

    private static func inDirectory(_ body: (String) throws -> Void) throws {
        // Short: a socket path must fit in sockaddr_un's 108 bytes.
        let directory = try #require(mkdtemp(strdup("/tmp/kb-bus-XXXXXX")).map { String(cString: $0) })
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    private struct SocketError: Error { let call: String; let code: Int32 }

    /// A Unix stream socket listening on `path`.
    private static func listen(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            sunPath.copyBytes(from: path.utf8)
            sunPath[path.utf8.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, Glibc.listen(fd, 4) == 0 else {
            let code = errno
            close(fd)
            throw SocketError(call: "bind/listen", code: code)
        }
        return fd
    }
}
