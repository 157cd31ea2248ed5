import HTTPCore
import Locking
import OSCTransport
import RemoteTree
import Testing

/// The OSCQuery mirror against servers that answer wrongly, over real TCP on loopback: each is
/// refused with an error that says what was wrong, within the options' timeout, and none grows
/// the mirror's memory past its limits.
@Suite struct OSCQueryHostileServerTests {
    /// A TCP server that answers each connection's first bytes with what `answer` returns for
    /// them (the request's head as text), then closes it unless told to keep it open.
    final class CannedServer: Sendable {
        let server: OSCTCPServer

        init(keepOpen: Bool = false, answer: @escaping @Sendable (String) -> [UInt8]) throws {
            server = try OSCTCPServer(host: "127.0.0.1", port: 0)
            server.start(
                onFrame: { _, _ in },
                onOtherProtocol: { connection, first in
                    let buffer = Locked<[UInt8]>(Array(first))
                    let respond: @Sendable () -> Void = {
                        let text = buffer.withLock { String(decoding: $0, as: UTF8.self) }
                        guard text.contains("\r\n\r\n") else { return }
                        connection.write(answer(text))
                        if !keepOpen { connection.closeAfterWriting() }
                    }
                    connection.setRawHandler { bytes in
                        buffer.withLock { $0 += bytes }
                        respond()
                    }
                    respond()
                })
        }

        deinit {
            server.close()
        }

        var port: UInt16 { server.localAddress.port }
    }

    static let hostInfo = #"{"NAME":"x","OSC_PORT":9,"EXTENSIONS":{"LISTEN":true,"VALUE":true}}"#
    static let namespace = #"{"FULL_PATH":"/","ACCESS":0,"CONTENTS":{"a":{"TYPE":"f","VALUE":[0.5]}}}"#

    static func ok(_ body: String) -> [UInt8] {
        Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    }

    /// Answers HOST_INFO and the namespace, and a WebSocket upgrade with `upgrade(key)`.
    static func server(keepOpen: Bool = false, upgrade: @escaping @Sendable (String) -> [UInt8]) throws -> CannedServer
    {
        try CannedServer(keepOpen: keepOpen) { request in
            if request.hasPrefix("GET /?HOST_INFO") { return ok(hostInfo) }
            if request.lowercased().contains("upgrade: websocket") {
                let key = request.split(separator: "\r\n").first { $0.hasPrefix("Sec-WebSocket-Key: ") }
                return upgrade(String(key?.dropFirst("Sec-WebSocket-Key: ".count) ?? ""))
            }
            return ok(namespace)
        }
    }

    static func connect(_ port: UInt16) async -> RemoteTreeError? {
        var options = RemoteTreeOptions()
        options.timeout = .milliseconds(500)
        do {
            let remote = try await RemoteParameterTree.connect(
                to: .oscQuery(host: "127.0.0.1", port: port), options: options)
            remote.close()
            return nil
        } catch {
            return error
        }
    }

    static func reason(_ error: RemoteTreeError?) -> String {
        switch error {
        case .notOSCQuery(_, let reason)?, .invalidList(_, let reason)?: reason
        case .some(let error): "\(error)"
        case nil: "no error"
        }
    }

    @Test func aWrongAcceptHashIsRefused() async throws {
        let server = try Self.server { _ in
            Array(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: AAAA\r\n\r\n"
                    .utf8)
        }
        let reason = Self.reason(await Self.connect(server.port))
        #expect(reason.contains("is not the hash of the key sent"), "\(reason)")
    }

    @Test func anExtensionThatWasNotOfferedIsRefused() async throws {
        let server = try Self.server { key in
            var bytes = WebSocketHandshake.response(forKey: key) ?? []
            bytes.removeLast(2)
            return bytes + Array("Sec-WebSocket-Extensions: permessage-deflate\r\n\r\n".utf8)
        }
        let reason = Self.reason(await Self.connect(server.port))
        #expect(reason.contains("permessage-deflate"), "\(reason)")
    }

    @Test func aServerThatAnswersTheUpgradeWith404IsRefused() async throws {
        let server = try Self.server { _ in Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8) }
        let reason = Self.reason(await Self.connect(server.port))
        #expect(reason.contains("404"), "\(reason)")
    }

    @Test func aMaskedFrameFromTheServerDropsTheConnection() async throws {
        let server = try Self.server(keepOpen: true) { key in
            let frame = WebSocketFrameEncoder.masked(
                WebSocketFrameEncoder().encode(.binary([1, 2])), key: [1, 2, 3, 4])
            return (WebSocketHandshake.response(forKey: key) ?? []) + frame
        }
        var options = RemoteTreeOptions()
        options.timeout = .milliseconds(500)
        let states = Locked<[RemoteTreeState]>([])
        let remote = try await RemoteParameterTree.connect(
            to: .oscQuery(host: "127.0.0.1", port: server.port), options: options,
            onEvent: { if case .stateChanged(let state) = $0 { states.withLock { $0.append(state) } } })
        defer { remote.close() }
        // The frame is refused: the mirror closes the WebSocket (1002) and counts the server lost.
        #expect(await eventually { states.withLock { $0 }.contains(.lost) })
    }

    @Test func aHeadThatNeverEndsIsRefusedAtItsLimit() async throws {
        let server = try CannedServer(keepOpen: true) { _ in
            Array(("HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 9000)).utf8)
        }
        let reason = Self.reason(await Self.connect(server.port))
        #expect(reason.contains("longer than 8192 bytes"), "\(reason)")
    }

    @Test func anAnnouncedBodyPastTheLimitIsRefusedBeforeItComes() async throws {
        let server = try CannedServer(keepOpen: true) { _ in
            Array("HTTP/1.1 200 OK\r\nContent-Length: 900000000\r\n\r\n".utf8)
        }
        let reason = Self.reason(await Self.connect(server.port))
        #expect(reason.contains("more than 8388608"), "\(reason)")
    }

    @Test func chunkedIsRefused() async throws {
        let server = try CannedServer { _ in
            Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n".utf8)
        }
        let reason = Self.reason(await Self.connect(server.port))
        #expect(reason.contains("chunked"), "\(reason)")
    }

    @Test func aServerThatNeverAnswersIsNoAnswer() async throws {
        let server = try CannedServer(keepOpen: true) { _ in [] }
        let error = await Self.connect(server.port)
        guard case .noAnswer? = error else {
            Issue.record("expected noAnswer, got \(String(describing: error))")
            return
        }
    }

    @Test func aNamespaceThatIsNotJSONIsRefused() async throws {
        let server = try CannedServer { request in
            request.hasPrefix("GET /?HOST_INFO") ? Self.ok(Self.hostInfo) : Self.ok("<html>hello</html>")
        }
        let reason = Self.reason(await Self.connect(server.port))
        #expect(reason.contains("namespace is not JSON"), "\(reason)")
    }
}
