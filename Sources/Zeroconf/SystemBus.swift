#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether D-Bus's system bus listens, asked before Avahi's client library is loaded.
///
/// The Avahi daemon is reached over the system bus and nothing else. Where no bus listens,
/// loading libavahi-client (and with it libdbus, libsystemd, libgcrypt and six more libraries)
/// only to hear so kept 1.3 MiB resident for the life of a server that advertised nothing. The
/// probe does what libdbus does first: it connects to the bus's socket, and closes the
/// connection at once.
///
/// Only `unix:path=…` addresses are tried. Any other transport (`tcp:`, `unix:abstract=`,
/// `autolaunch:`…) is left to libdbus: the probe then says nothing, and the library is loaded.
enum SystemBus {
    /// libdbus's system bus where `DBUS_SYSTEM_BUS_ADDRESS` is not set (Debian's build).
    static let defaultAddress = "unix:path=/run/dbus/system_bus_socket"

    /// Why the bus of this process's environment cannot be reached, or `nil`.
    static func unreachableReason() -> String? {
        let address = getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) } ?? defaultAddress
        return unreachableReason(address: address)
    }

    /// Why no socket of `address` (a D-Bus address: entries split by `;`) accepts a connection,
    /// or `nil` when one does or when an entry is not one the probe can try.
    static func unreachableReason(address: String) -> String? {
        guard let paths = socketPaths(address), !paths.isEmpty else { return nil }
        var reasons: [String] = []
        for path in paths {
            guard let failure = connectionFailure(path) else { return nil }
            reasons.append("\(path): \(failure)")
        }
        return "no D-Bus system bus at " + reasons.joined(separator: "; ")
    }

    /// The socket path of each entry of `address`, or `nil` when an entry is not `unix:path=`.
    static func socketPaths(_ address: String) -> [String]? {
        var paths: [String] = []
        for entry in address.split(separator: ";") {
            guard entry.hasPrefix("unix:") else { return nil }
            var path: String?
            for pair in entry.dropFirst("unix:".count).split(separator: ",") {
                guard let equals = pair.firstIndex(of: "=") else { return nil }
                let key = pair[..<equals]
                let value = pair[pair.index(after: equals)...]
                switch key {
                case "path": path = unescaped(value)
                case "guid": continue
                default: return nil  // abstract=, tmpdir=, runtime=…: libdbus knows them.
                }
            }
            guard let path else { return nil }
            paths.append(path)
        }
        return paths
    }

    /// A D-Bus address value with its `%XX` escapes undone; `nil` for a malformed escape.
    static func unescaped(_ value: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = value.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Connects a stream socket to `path` and closes it: `nil` when the connection was accepted
    /// (or could not be tried: then libdbus decides), else the system's reason.
    private static func connectionFailure(_ path: String) -> String? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            sunPath.copyBytes(from: path.utf8)
            sunPath[path.utf8.count] = 0
        }
        #if os(Linux)
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if connected == 0 { return nil }
        let code = errno
        // Only the answers that say nobody listens there; anything else is libdbus's to judge.
        guard [ENOENT, ECONNREFUSED, ENOTDIR].contains(code) else { return nil }
        return String(cString: strerror(code))
    }
}
