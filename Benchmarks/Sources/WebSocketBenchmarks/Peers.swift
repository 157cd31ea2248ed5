import Glibc
import OSCCore

/// A blocking loopback socket of the benchmark's peers: UDP, or TCP speaking WebSocket as a
/// browser does (masked frames). No Swift concurrency inside a measured loop.
final class BenchSocket {
    let fd: Int32
    private var pending: [UInt8] = []

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    static func udp() -> BenchSocket {
        let socket = BenchSocket(fd: Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0))
        var address = loopback(port: 0)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket.fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var size: Int32 = 4 << 20
        setsockopt(socket.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        return socket
    }

    /// A WebSocket to the server at `port`, its handshake done.
    static func webSocket(port: UInt16) -> BenchSocket {
        let socket = BenchSocket(fd: Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket.fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        precondition(connected == 0, "connect failed")
        var one: Int32 = 1
        setsockopt(socket.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        socket.write(
            Array(
                ("GET / HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8))
        // The 101 response ends with an empty line.
        while !socket.pending.windowContains([13, 10, 13, 10]) { socket.fill() }
        let end = socket.pending.firstRange(of: [13, 10, 13, 10])!.upperBound
        socket.pending.removeFirst(end)
        return socket
    }

    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    var port: UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            precondition(sent > 0, "send failed: errno \(errno)")
            offset += sent
        }
    }

    func send(datagram bytes: [UInt8], to port: UInt16) {
        var address = Self.loopback(port: port)
        _ = bytes.withUnsafeBytes { buffer in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, buffer.baseAddress, buffer.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// Reads what is there (blocking for the first bytes) onto the pending bytes.
    func fill() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        precondition(count > 0, "the server closed the connection")
        pending += chunk[0..<count]
    }

    /// The next datagram (UDP).
    func datagram() -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        precondition(count > 0, "recv failed")
        return Array(chunk[0..<count])
    }

    /// The payload of the next WebSocket frame from the server (unmasked).
    func frame() -> [UInt8] {
        while true {
            if let (payload, length) = Self.parseFrame(pending) {
                pending.removeFirst(length)
                return payload
            }
            fill()
        }
    }

    static func parseFrame(_ bytes: [UInt8]) -> ([UInt8], Int)? {
        guard bytes.count >= 2 else { return nil }
        var length = Int(bytes[1] & 0x7F)
        var header = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            header = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            length = (2..<10).reduce(0) { $0 << 8 | Int(bytes[$1]) }
            header = 10
        }
        guard bytes.count >= header + length else { return nil }
        return (Array(bytes[header..<header + length]), header + length)
    }

    /// A client frame (masked, as RFC 6455 requires of clients).
    static func clientFrame(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            bytes.append(0x80 | UInt8(payload.count))
        } else {
            bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        bytes += mask
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ mask[index & 3]) }
        return bytes
    }
}

extension Array where Element == UInt8 {
    func windowContains(_ needle: [UInt8]) -> Bool { firstRange(of: needle) != nil }
}
