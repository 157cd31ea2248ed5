#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Socket set-up shared by the UDP and TCP types: creation, options, binding, addresses.
enum Socket {
    static var streamType: Int32 {
        #if canImport(Glibc)
            Int32(SOCK_STREAM.rawValue)
        #else
            SOCK_STREAM
        #endif
    }

    /// Creates a non-blocking, close-on-exec socket.
    static func make(family: OSCSocketAddress.Family, type: Int32) throws(OSCSystemError) -> Int32 {
        let domain = family == .ipv4 ? AF_INET : AF_INET6
        #if os(Linux)
            let flags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            return try SystemCall.require("socket") { socket(domain, type | flags, 0) }
        #else
            let fd = try SystemCall.require("socket") { socket(domain, type, 0) }
            do throws(OSCSystemError) {
                try setNonBlocking(fd)
                var on: Int32 = 1
                try SystemCall.require("setsockopt(SO_NOSIGPIPE)") {
                    setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
                }
            } catch {
                closeDescriptor(fd)
                throw error
            }
            return fd
        #endif
    }

    static func setNonBlocking(_ fd: Int32) throws(OSCSystemError) {
        let flags = try SystemCall.require("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
        try SystemCall.require("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    static func setOption(
        _ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32, _ label: StaticString
    ) throws(OSCSystemError) {
        var value = value
        try SystemCall.require(label) { setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) }
    }

    static func setOption<T>(_ fd: Int32, _ level: Int32, _ name: Int32, bytes value: T, _ label: StaticString)
        throws(OSCSystemError)
    {
        try SystemCall.require(label) {
            withUnsafeBytes(of: value) { setsockopt(fd, level, name, $0.baseAddress, socklen_t($0.count)) }
        }
    }

    /// Closes a descriptor; only cancel handlers of dispatch sources and failed set-ups call this.
    static func closeDescriptor(_ fd: Int32) {
        #if canImport(Glibc)
            _ = Glibc.close(fd)
        #else
            _ = Darwin.close(fd)
        #endif
    }

    /// `MSG_DONTWAIT`: a send never waits, even on a socket that a reader thread keeps blocking.
    static let dontWait = Int32(MSG_DONTWAIT)

    /// `send(2)` that never waits and never raises `SIGPIPE`.
    static func sendBytes(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc)
            Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | dontWait)
        #else
            Darwin.send(fd, bytes.baseAddress, bytes.count, dontWait)
        #endif
    }

    static func intOption(_ fd: Int32, _ level: Int32, _ name: Int32) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, level, name, &value, &length) == 0 ? value : -1
    }

    static func bind(_ fd: Int32, to address: OSCSocketAddress) throws(OSCSystemError) {
        #if canImport(Glibc)
            let result = address.withSockAddr { pointer, length in Glibc.bind(fd, pointer, length) }
        #else
            let result = address.withSockAddr { pointer, length in Darwin.bind(fd, pointer, length) }
        #endif
        if result != 0 { throw OSCSystemError(call: "bind(\(address))", errno: errno) }
    }

    static func localAddress(_ fd: Int32) throws(OSCSystemError) -> OSCSocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = try withUnsafeMutablePointer(to: &storage) { (pointer) throws(OSCSystemError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(OSCSystemError) in
                try SystemCall.require("getsockname") { getsockname(fd, address, &length) }
            }
        }
        guard let address = OSCSocketAddress(storage: storage, length: length) else {
            throw OSCSystemError(call: "getsockname", errno: EAFNOSUPPORT)
        }
        return address
    }

    /// Resolves a numeric host, or a name if it is not numeric (which may block).
    static func address(host: String, port: UInt16) throws(OSCSocketAddressError) -> OSCSocketAddress {
        if let numeric = OSCSocketAddress(numericHost: host, port: port) { return numeric }
        return try OSCSocketAddress.resolve(host: host, port: port)[0]
    }
}
