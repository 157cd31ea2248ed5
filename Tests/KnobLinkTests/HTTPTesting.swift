import Foundation

/// One HTTP response as read off the wire, for the tests.
struct RawHTTPResponse {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    /// Bytes of the whole response (head and body).
    var length: Int

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body)) }

    /// The first whole response in `bytes` (the body by Content-Length, none for 101 or HEAD).
    static func parse(_ bytes: [UInt8], head isHead: Bool = false) -> RawHTTPResponse? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(bytes.count - 3, 0)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else {
            return nil
        }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let bodyLength = (status == 101 || isHead) ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        let start = end + 4
        guard bytes.count >= start + bodyLength else { return nil }
        return RawHTTPResponse(
            status: status, headers: headers, body: Array(bytes[start..<start + bodyLength]), length: start + bodyLength
        )
    }
}

extension RawTCPClient {
    /// Sends a request and reads its response off the front of what arrives.
    func request(_ text: String, head: Bool = false) async -> RawHTTPResponse? {
        send(text)
        return await response(head: head)
    }

    func response(head: Bool = false) async -> RawHTTPResponse? {
        var found: RawHTTPResponse?
        await wait { bytes, closed in
            found = RawHTTPResponse.parse(bytes, head: head)
            return found != nil || closed
        }
        if let found { consume(found.length) }
        return found
    }
}

/// A WebSocket client's frames, as RFC 6455 section 5 says a client writes them (masked), and
/// the server's frames read back.
enum WebSocketTesting {
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="

    static func handshake(path: String = "/") -> String {
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
    }

    static func frame(opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            bytes.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes.append(maskBit | 126)
            bytes += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        guard masked else { return bytes + payload }
        let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        bytes += mask
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ mask[index % 4]) }
        return bytes
    }

    static func text(_ text: String) -> [UInt8] { frame(opcode: 1, Array(text.utf8)) }
    static func binary(_ payload: [UInt8]) -> [UInt8] { frame(opcode: 2, payload) }

    struct Frame: Equatable {
        var fin: Bool
        var opcode: UInt8
        var payload: [UInt8]
    }

    /// The server's frames at the front of `bytes` (unmasked), and how many bytes they took.
    static func frames(in bytes: [UInt8]) -> [Frame] {
        var frames: [Frame] = []
        var offset = 0
        while offset + 2 <= bytes.count {
            let fin = bytes[offset] & 0x80 != 0
            let opcode = bytes[offset] & 0x0F
            var length = Int(bytes[offset + 1] & 0x7F)
            var header = 2
            if length == 126 {
                guard offset + 4 <= bytes.count else { break }
                length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                header = 4
            } else if length == 127 {
                guard offset + 10 <= bytes.count else { break }
                length = (0..<8).reduce(0) { $0 << 8 | Int(bytes[offset + 2 + $1]) }
                header = 10
            }
            guard offset + header + length <= bytes.count else { break }
            frames.append(
                Frame(fin: fin, opcode: opcode, payload: Array(bytes[offset + header..<offset + header + length])))
            offset += header + length
        }
        return frames
    }
}

extension RawTCPClient {
    /// Opens a WebSocket on this connection; returns the 101 response.
    func openWebSocket(path: String = "/") async -> RawHTTPResponse? {
        await request(WebSocketTesting.handshake(path: path))
    }

    /// The frames received after the handshake, once `condition` holds for them (or the time is up).
    func frames(seconds: Double = 15, until condition: ([WebSocketTesting.Frame]) -> Bool) async -> [WebSocketTesting
        .Frame]
    {
        var frames: [WebSocketTesting.Frame] = []
        await wait(seconds: seconds) { bytes, closed in
            frames = WebSocketTesting.frames(in: bytes)
            return condition(frames) || closed
        }
        frames = WebSocketTesting.frames(in: bytes)
        return frames
    }
}
