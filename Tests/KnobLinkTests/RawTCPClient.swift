import Foundation
import Locking
import OSCTransport

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP client of plain bytes for the HTTP and WebSocket tests: what curl or a browser sends,
/// byte for byte. Its reads wait on a thread of their own (never on the concurrency pool).
final class RawTCPClient: @unchecked Sendable {
    private let fd: Int32
    private let input = Locked<(received: [UInt8], peerClosed: Bool)>(([], false))
    private var reader: Thread?

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw OSCSystemError(call: "connect", errno: errno)
        }
        let thread = Thread { [self] in readLoop() }
        reader = thread
        thread.start()
    }

    deinit { shutdown(fd, Int32(SHUT_RDWR)) }

    private func readLoop() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                input.withLock { $0.peerClosed = true }
                close(fd)
                return
            }
            input.withLock { $0.received.append(contentsOf: chunk[0..<count]) }
        }
    }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return }
            offset += written
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Closes the sending half (the server reads end of stream).
    func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    var bytes: [UInt8] { input.withLock { $0.received } }
    var isClosedByPeer: Bool { input.withLock { $0.peerClosed } }

    /// Takes the first `count` received bytes out.
    func consume(_ count: Int) {
        input.withLock { $0.received.removeFirst(min(count, $0.received.count)) }
    }

    /// Waits until `condition` holds for what arrived (or the server closed), for at most `seconds`.
    @discardableResult
    func wait(seconds: Double = 15, until condition: ([UInt8], _ closed: Bool) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            let (bytes, closed) = input.withLock { ($0.received, $0.peerClosed) }
            if condition(bytes, closed) { return true }
            try? await Task.sleep(for: .milliseconds(3))
        }
        let (bytes, closed) = input.withLock { ($0.received, $0.peerClosed) }
        return condition(bytes, closed)
    }

    /// Waits for the server to close the connection.
    func waitForClose(seconds: Double = 15) async -> Bool {
        await wait(seconds: seconds) { _, closed in closed }
    }
}
