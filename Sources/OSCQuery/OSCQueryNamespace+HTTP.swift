import HTTPCore

extension OSCQueryNamespace {
    /// The methods the namespace answers, as `Allow` lists them.
    public static let allowedMethods = "GET, HEAD, OPTIONS"

    /// The answer to one HTTP request for the namespace: the one entry point the server calls for
    /// every request that is neither `/ui` nor a WebSocket upgrade.
    ///
    /// Pure: the request in, the response out, the values read from the tree at the call.
    ///
    /// | request | response |
    /// |---|---|
    /// | `GET /`, `GET /knob`, `GET /knob/gain` | 200, the node's JSON with the current values |
    /// | `GET /knob/gain?VALUE` (any ``OSCQueryAttribute``) | 200, `{"VALUE":[…]}` only |
    /// | an attribute the node does not have (`/knob?VALUE`) | 204, no content (the proposal's answer) |
    /// | `GET /?HOST_INFO` (any path of the namespace) | 200, `hostInfo`'s JSON |
    /// | an unknown path | 404 |
    /// | an unknown attribute (`?FOO`, `?value`, `?VALUE&x`) | 400 |
    /// | `OPTIONS` (a CORS preflight) | 204 with `Allow` and the `Access-Control-Allow-*` fields |
    /// | any other method | 405 with `Allow: GET, HEAD, OPTIONS` |
    ///
    /// `HEAD` is answered like `GET` without the body. Every response is
    /// `Content-Type: application/json` with `Access-Control-Allow-Origin: *`
    /// (`HTTPResponse.encoded()` writes it, and the `Content-Length`), and goes through
    /// `HTTPResponse.answering(_:)`, so keep-alive follows the request. Error bodies are
    /// `HTTPResponse.error(_:detail:)`'s; none of them closes the connection.
    /// - Parameters:
    ///   - request: the parsed request (its `path` decoded, its `query` as sent).
    ///   - hostInfo: what `?HOST_INFO` answers; `OSC_IP` should be the address the request arrived on.
    /// - Complexity: O(n) in the size of the answer.
    public func response(to request: HTTPRequest, hostInfo: OSCQueryHostInfo) -> HTTPResponse {
        answer(request, hostInfo: hostInfo).answering(request)
    }

    private func answer(_ request: HTTPRequest, hostInfo: OSCQueryHostInfo) -> HTTPResponse {
        switch request.method {
        case "GET", "HEAD": break
        case "OPTIONS": return Self.preflight(request)
        default:
            var response = HTTPResponse.error(
                .methodNotAllowed, detail: "the namespace answers GET and HEAD, not \(request.method)")
            response.headers.append(name: "Allow", value: Self.allowedMethods)
            return response
        }
        guard let index = nodeIndex(for: request.path) else {
            return .error(.notFound, detail: "no node at \(request.path)")
        }
        guard let query = request.query, !query.isEmpty else {
            var writer = OSCQueryJSONWriter(capacity: nodes[index].bytes.count + nodes[index].slots.count * 12)
            render(bytes: nodes[index].bytes, slots: nodes[index].slots, into: &writer)
            return HTTPResponse(status: .ok, body: writer.bytes)
        }
        if query == "HOST_INFO" {
            var writer = OSCQueryJSONWriter()
            writer.write(hostInfo.json)
            return HTTPResponse(status: .ok, body: writer.bytes)
        }
        guard let attribute = OSCQueryAttribute(rawValue: query) else {
            return .error(.badRequest, detail: "unknown attribute \(query)")
        }
        guard let body = attributeJSON(attribute, of: nodes[index]) else {
            return HTTPResponse(status: .noContent)
        }
        return HTTPResponse(status: .ok, body: body)
    }

    /// `{"ATTRIBUTE":value}` for a node, or `nil` when the node does not have the attribute.
    private func attributeJSON(_ attribute: OSCQueryAttribute, of node: OSCQueryNode) -> [UInt8]? {
        var writer = OSCQueryJSONWriter()
        writer.bytes.append(UInt8(ascii: "{"))
        writer.write(key: attribute.rawValue)
        switch attribute {
        case .value:
            guard let parameter = node.parameter else { return nil }
            writer.bytes.append(UInt8(ascii: "["))
            writer.write(float: Float(tree.allParameters[parameter].normalizedValue))
            writer.bytes.append(UInt8(ascii: "]"))
        case .contents:
            guard let contents = node.contentsBytes else { return nil }
            render(bytes: contents, slots: node.contentsSlots, into: &writer)
        default:
            guard let value = attributes(of: node).first(where: { $0.key == attribute.rawValue })?.value else {
                return nil
            }
            writer.write(value)
        }
        writer.bytes.append(UInt8(ascii: "}"))
        return writer.bytes
    }

    /// A CORS preflight's answer (Fetch standard, "CORS-preflight fetch"): 204 with the methods
    /// allowed, the request headers the browser asked for, and a day's cache.
    private static func preflight(_ request: HTTPRequest) -> HTTPResponse {
        var response = HTTPResponse(status: .noContent)
        response.headers.append(name: "Allow", value: allowedMethods)
        response.headers.append(name: "Access-Control-Allow-Methods", value: allowedMethods)
        if let asked = request.headers["Access-Control-Request-Headers"], !asked.isEmpty {
            response.headers.append(name: "Access-Control-Allow-Headers", value: asked)
        }
        response.headers.append(name: "Access-Control-Max-Age", value: "86400")
        return response
    }
}
