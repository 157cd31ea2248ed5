import HTTPCore
import OSCQuery
import Parameters
import Testing

@Suite struct OSCQueryHTTPTests {
    private let tree = ParameterTree.makeDefault()
    private var space: OSCQueryNamespace { OSCQueryNamespace(tree: tree) }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        space.response(to: request, hostInfo: Fixtures.hostInfo)
    }

    /// The response as a client reads it: status line, fields and body.
    private func wire(_ response: HTTPResponse) -> (head: String, body: [UInt8]) {
        let bytes = response.encoded()
        let end = (0..<bytes.count - 3).first { bytes[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) } ?? bytes.count
        return (String(decoding: bytes[..<end], as: UTF8.self), Array(bytes[min(end + 4, bytes.count)...]))
    }

    @Test(arguments: ["/", "/knob", "/knob/gain", "/knob/gain/", "/toggle/retrigger"])
    func aKnownPathIsA200WithJSON(path: String) throws {
        let response = answer(Fixtures.get(path))
        #expect(response.status == .ok)
        let (head, body) = wire(response)
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(head.contains("\r\nContent-Type: application/json\r\n"))
        #expect(head.contains("\r\nContent-Length: \(body.count)\r\n"))
        #expect(head.contains("\r\nAccess-Control-Allow-Origin: *"))
        #expect(!head.contains("Connection: close"))
        let json = try OSCQueryJSONParser(maximumSize: 1 << 20, maximumDepth: 32).parse(body)
        #expect(json["FULL_PATH"] == .string(path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path))
    }

    @Test func aNodeIsThePieceOfTheWholeNamespace() throws {
        let whole = try Fixtures.json(answer(Fixtures.get("/")))
        #expect(try Fixtures.json(answer(Fixtures.get("/knob"))) == whole["CONTENTS"]?["knob"])
        #expect(
            try Fixtures.json(answer(Fixtures.get("/amp/decay"))) == whole["CONTENTS"]?["amp"]?["CONTENTS"]?["decay"])
    }

    @Test(arguments: ["/nope", "/knob/gain/raw", "/sys", "/wave/progress", "/knob/gain/x", "//"])
    func anUnknownPathIsA404(path: String) throws {
        let response = answer(Fixtures.get(path))
        #expect(response.status == .notFound)
        #expect(try Fixtures.json(response)["STATUS"] == .int(404))
        #expect(wire(response).head.contains("Content-Type: application/json"))
    }

    @Test(arguments: ["FOO", "value", "VALUE&x", "VALUE=1", "HOST_INFO ", "LISTEN"])
    func anUnknownAttributeIsA400(query: String) throws {
        let response = answer(Fixtures.get("/knob/gain", query: query))
        #expect(response.status == .badRequest)
        #expect(try Fixtures.json(response)["DETAIL"] == .string("unknown attribute \(query)"))
        #expect(!response.closesConnection)
    }

    @Test(arguments: [
        ("FULL_PATH", OSCQueryJSON.string("/knob/pan")), ("TYPE", .string("f")), ("VALUE", .array([.double(0.5)])),
        ("RANGE", .array([.object([("MIN", .int(0)), ("MAX", .int(1))])])), ("ACCESS", .int(3)),
        ("DESCRIPTION", .string("Pan")), ("CLIPMODE", .string("both")),
    ])
    func anAttributeQueryAnswersThatAttributeAlone(attribute: String, value: OSCQueryJSON) throws {
        let response = answer(Fixtures.get("/knob/pan", query: attribute))
        #expect(response.status == .ok)
        #expect(try Fixtures.json(response) == .object([(attribute, value)]))
    }

    @Test func aContainersContentsAttributeIsItsContents() throws {
        let whole = try Fixtures.json(answer(Fixtures.get("/")))
        let contents = try Fixtures.json(answer(Fixtures.get("/toggle", query: "CONTENTS")))
        #expect(contents == .object([("CONTENTS", whole["CONTENTS"]?["toggle"]?["CONTENTS"] ?? .null)]))
    }

    @Test(arguments: [
        ("/knob", "VALUE"), ("/knob/pan", "UNIT"), ("/knob/gain", "EXTENDED_TYPE"), ("/knob/gain", "CONTENTS"),
        ("/", "TYPE"),
    ])
    func anAttributeTheNodeLacksIsA204(path: String, attribute: String) {
        let response = answer(Fixtures.get(path, query: attribute))
        #expect(response.status == .noContent)
        let (head, body) = wire(response)
        #expect(head.hasPrefix("HTTP/1.1 204 No Content\r\n"))
        #expect(!head.contains("Content-Length"))
        #expect(head.contains("Access-Control-Allow-Origin: *"))
        #expect(body.isEmpty)
    }

    @Test func hostInfoSaysWhatIsServed() throws {
        let json = try Fixtures.json(answer(Fixtures.get("/", query: "HOST_INFO")))
        #expect(json["NAME"] == .string("test-instance"))
        #expect(json["OSC_IP"] == .string("127.0.0.1"))
        #expect(json["OSC_PORT"] == .int(8000))
        #expect(json["OSC_TRANSPORT"] == .string("UDP"))
        guard case .object(let extensions) = json["EXTENSIONS"] else {
            Issue.record("no EXTENSIONS")
            return
        }
        #expect(extensions.map(\.key) == OSCQueryHostInfo.servedExtensions)
        #expect(extensions.allSatisfy { $0.value == .bool(true) })
        for name in ["ACCESS", "VALUE", "RANGE", "DESCRIPTION", "UNIT", "CLIPMODE", "LISTEN", "PATH_CHANGED"] {
            #expect(extensions.contains { $0.key == name }, "\(name)")
        }
    }

    @Test(arguments: [nil, "", "0.0.0.0", "::", "[::]"] as [String?])
    func hostInfoNeverGivesAnUnspecifiedAddress(ip: String?) throws {
        let info = OSCQueryHostInfo(name: "x", oscPort: 9, oscIP: ip)
        let json = try Fixtures.json(space.response(to: Fixtures.get("/", query: "HOST_INFO"), hostInfo: info))
        #expect(json["OSC_IP"] == nil)
        #expect(json["NAME"] == .string("x"))
    }

    @Test func hostInfoGivesAMappedIPv4AddressAsIPv4() {
        #expect(OSCQueryHostInfo(name: "x", oscPort: 9, oscIP: "::ffff:192.168.1.20").advertisedIP == "192.168.1.20")
        #expect(OSCQueryHostInfo(name: "x", oscPort: 9, oscIP: "fe80::1").advertisedIP == "fe80::1")
    }

    @Test func headIsGetWithoutTheBody() {
        let get = answer(Fixtures.get("/knob"))
        let head = answer(Fixtures.get("/knob", method: "HEAD"))
        #expect(head.status == .ok)
        #expect(head.omitsBody)
        let (getHead, getBody) = wire(get)
        let (headHead, headBody) = wire(head)
        #expect(headHead == getHead)
        #expect(headBody.isEmpty)
        #expect(!getBody.isEmpty)
        #expect(answer(Fixtures.get("/nope", method: "HEAD")).status == .notFound)
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "PATCH", "get", "BREW"])
    func otherMethodsAreA405WithAllow(method: String) throws {
        let response = answer(Fixtures.get("/knob/gain", method: method))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD, OPTIONS")
        #expect(wire(response).head.contains("\r\nAllow: GET, HEAD, OPTIONS"))
        #expect(try Fixtures.json(response)["STATUS"] == .int(405))
    }

    @Test func optionsIsACORSPreflight() {
        var request = Fixtures.get("/knob/gain", method: "OPTIONS")
        request.headers.append(name: "Origin", value: "http://example.org")
        request.headers.append(name: "Access-Control-Request-Method", value: "GET")
        request.headers.append(name: "Access-Control-Request-Headers", value: "x-custom, content-type")
        let response = answer(request)
        #expect(response.status == .noContent)
        let (head, body) = wire(response)
        #expect(head.contains("\r\nAccess-Control-Allow-Origin: *\r\n"))
        #expect(head.contains("\r\nAccess-Control-Allow-Methods: GET, HEAD, OPTIONS\r\n"))
        #expect(head.contains("\r\nAccess-Control-Allow-Headers: x-custom, content-type\r\n"))
        #expect(head.contains("\r\nAccess-Control-Max-Age: 86400"))
        #expect(!head.contains("Content-Length"))
        #expect(body.isEmpty)
    }

    @Test func keepAliveFollowsTheRequest() {
        var close = Fixtures.get("/knob")
        close.headers.append(name: "Connection", value: "close")
        #expect(answer(close).closesConnection)
        #expect(wire(answer(close)).head.contains("Connection: close"))
        var old = HTTPRequest(method: "GET", path: "/knob", version: .http1_0)
        #expect(answer(old).closesConnection)
        old.headers.append(name: "Connection", value: "keep-alive")
        #expect(wire(answer(old)).head.contains("Connection: keep-alive"))
        #expect(!answer(Fixtures.get("/nope")).closesConnection)
    }

    @Test func theRootPrefixApplies() throws {
        let prefixed = OSCQueryNamespace(tree: tree, rootPrefix: "/inst1")
        let gain = prefixed.response(
            to: Fixtures.get("/inst1/knob/gain", query: "FULL_PATH"), hostInfo: Fixtures.hostInfo)
        #expect(try Fixtures.json(gain) == .object([("FULL_PATH", .string("/inst1/knob/gain"))]))
        #expect(prefixed.response(to: Fixtures.get("/knob/gain"), hostInfo: Fixtures.hostInfo).status == .notFound)
        let instance = try Fixtures.json(prefixed.response(to: Fixtures.get("/inst1"), hostInfo: Fixtures.hostInfo))
        #expect(instance["DESCRIPTION"] == .string("inst1"))
    }
}
