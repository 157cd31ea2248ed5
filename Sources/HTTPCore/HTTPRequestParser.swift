/// Reads HTTP/1.x requests (RFC 9112) as bytes arrive, one request a call, leaving pipelined ones.
///
/// The parser waits for the empty line that ends the head, then checks the whole head at once,
/// strictly: the MUST-reject rules of RFC 9112 and RFC 9110 (bare CR, obsolete line folding,
/// whitespace before a colon, NUL, two `Content-Length` or `Host` fields, no `Host` in HTTP/1.1)
/// are errors, not repairs, so that nothing in front of the server reads the bytes differently.
/// A line may end with LF alone (RFC 9112 section 2.2 allows it) and empty lines before the
/// request line are skipped. Bodies are refused (PROTOCOL.md section 8): an OSCQuery request is
/// a head alone.
///
/// The path is percent-decoded before its segments are split, so `%2F` separates segments like
/// `/` (an OSC address has no `/` inside a part, so there is nothing else it could mean) and
/// `%2E%2E` is a `..`; dot segments are then resolved (RFC 3986 section 5.2.4) and a `..` that
/// would go above `/` is an error.
///
/// The parser remembers how far it has looked, so feeding a request byte by byte costs linear
/// time. Use one parser per connection; after an error, answer and close the connection.
public struct HTTPRequestParser: Sendable {
    /// PROTOCOL.md section 8: an HTTP request's line and headers up to 8 KiB.
    public static let defaultMaximumHeadLength = 8192

    /// The longest head accepted: the request line, the header lines and the empty line that
    /// ends them, line endings included.
    public let maximumHeadLength: Int
    // Bytes of the current head already looked at, from the buffer's start.
    private var scanned = 0
    // Where the current line starts, from the buffer's start.
    private var lineStart = 0

    /// Creates a parser.
    /// - Parameter maximumHeadLength: the longest head accepted; 8 KiB by default.
    public init(maximumHeadLength: Int = Self.defaultMaximumHeadLength) {
        precondition(maximumHeadLength > 0)
        self.maximumHeadLength = maximumHeadLength
    }

    /// Consumes the next complete request from the front of `buffer`.
    ///
    /// Empty lines before a request line are consumed even when no request is complete yet.
    /// - Parameter buffer: the bytes received so far; the request's bytes are removed from it,
    ///   what follows (a pipelined request) stays.
    /// - Returns: the request, or `nil` when its head is not complete yet.
    /// - Throws: ``HTTPParseError/headersTooLarge(limit:)`` as soon as the head grows past
    ///   ``maximumHeadLength``; the other ``HTTPParseError`` cases once the head is complete.
    /// - Complexity: O(n) in the bytes not looked at by earlier calls, plus the head's length
    ///   when it is complete.
    public mutating func decode(buffer: inout [UInt8]) throws(HTTPParseError) -> HTTPRequest? {
        var origin = 0
        var index = scanned
        var lineStart = lineStart
        while index < buffer.count {
            guard index - origin < maximumHeadLength else {
                reset()
                throw .headersTooLarge(limit: maximumHeadLength)
            }
            if buffer[index] == Self.lf {
                let length = index - lineStart
                let empty = length == 0 || (length == 1 && buffer[lineStart] == Self.cr)
                if empty && lineStart == origin {
                    origin = index + 1
                } else if empty {
                    reset()
                    let head = Array(buffer[origin...index])
                    buffer.removeFirst(index + 1)
                    return try Self.parse(head: head)
                }
                lineStart = index + 1
            }
            index += 1
        }
        scanned = index - origin
        self.lineStart = lineStart - origin
        buffer.removeFirst(origin)
        return nil
    }

    private mutating func reset() {
        scanned = 0
        lineStart = 0
    }

    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    private static let space = UInt8(ascii: " ")
    private static let tab: UInt8 = 0x09

    /// Reads a complete head, which ends with its empty line.
    static func parse(head: [UInt8]) throws(HTTPParseError) -> HTTPRequest {
        for (offset, byte) in head.enumerated() {
            if byte == 0 { throw .malformed(.nulByte, offset: offset) }
            if byte == cr && (offset + 1 >= head.count || head[offset + 1] != lf) {
                throw .malformed(.bareCR, offset: offset)
            }
        }
        var lines: [Range<Int>] = []
        var start = 0
        for (offset, byte) in head.enumerated() where byte == lf {
            let end = offset > start && head[offset - 1] == cr ? offset - 1 : offset
            lines.append(start..<end)
            start = offset + 1
        }
        // The last line is the empty one that ends the head.
        guard let requestLine = lines.first else { throw .malformed(.requestLineSyntax, offset: 0) }
        var request = try parseRequestLine(head, requestLine)
        var contentLengthSeen = false
        var hostSeen = false
        var body: HTTPParseError?
        for line in lines.dropFirst().dropLast() {
            let field = try parseField(head, line)
            if HTTPHeaders.namesMatch(field.name, "Content-Length") {
                guard !contentLengthSeen else { throw .malformed(.duplicateContentLength, offset: line.lowerBound) }
                contentLengthSeen = true
                let digits = field.value.utf8
                guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else {
                    throw .malformed(.invalidContentLength, offset: line.lowerBound)
                }
                if body == nil && digits.contains(where: { $0 != 0x30 }) {
                    body = .bodyNotAllowed(field: field.name, offset: line.lowerBound)
                }
            } else if HTTPHeaders.namesMatch(field.name, "Transfer-Encoding") {
                if body == nil { body = .bodyNotAllowed(field: field.name, offset: line.lowerBound) }
            } else if HTTPHeaders.namesMatch(field.name, "Host") {
                guard !hostSeen else { throw .malformed(.duplicateHost, offset: line.lowerBound) }
                hostSeen = true
            }
            request.headers.append(name: field.name, value: field.value)
        }
        if let body { throw body }
        if request.version == .http1_1 && !hostSeen {
            throw .malformed(.missingHost, offset: lines.last?.lowerBound ?? head.count)
        }
        return request
    }

    private static func parseRequestLine(_ head: [UInt8], _ line: Range<Int>) throws(HTTPParseError) -> HTTPRequest {
        guard let firstSpace = head[line].firstIndex(of: space) else {
            throw .malformed(.requestLineSyntax, offset: line.upperBound)
        }
        guard let secondSpace = head[(firstSpace + 1)..<line.upperBound].firstIndex(of: space) else {
            throw .malformed(.requestLineSyntax, offset: line.upperBound)
        }
        guard secondSpace > firstSpace + 1 else { throw .malformed(.requestLineSyntax, offset: secondSpace) }
        let method = line.lowerBound..<firstSpace
        guard !method.isEmpty else { throw .malformed(.invalidMethod, offset: method.lowerBound) }
        if let bad = head[method].firstIndex(where: { !isTokenCharacter($0) }) {
            throw .malformed(.invalidMethod, offset: bad)
        }
        let version = try parseVersion(head, (secondSpace + 1)..<line.upperBound)
        let (path, query) = try parseTarget(head, (firstSpace + 1)..<secondSpace)
        return HTTPRequest(
            method: HTTPHeaders.latin1String(head[method]), path: path, query: query, version: version)
    }

    private static func parseVersion(_ head: [UInt8], _ range: Range<Int>) throws(HTTPParseError)
        -> HTTPRequest.Version
    {
        let text = head[range]
        guard text.count == 8, text.starts(with: "HTTP/".utf8), text[range.lowerBound + 6] == UInt8(ascii: "."),
            let major = digit(text[range.lowerBound + 5]), let minor = digit(text[range.lowerBound + 7])
        else { throw .malformed(.invalidVersion, offset: range.lowerBound) }
        switch (major, minor) {
        case (1, 0): return .http1_0
        case (1, 1): return .http1_1
        default: throw .unsupportedVersion(major: major, minor: minor, offset: range.lowerBound)
        }
    }

    private static func parseTarget(_ head: [UInt8], _ range: Range<Int>) throws(HTTPParseError) -> (String, String?) {
        if let bad = head[range].firstIndex(where: { !(0x21...0x7E).contains($0) || $0 == UInt8(ascii: "#") }) {
            throw .malformed(.invalidTarget, offset: bad)
        }
        var pathStart = range.lowerBound
        if head[pathStart] != UInt8(ascii: "/") {
            // Absolute-form (RFC 9112 section 3.2.2), which a server must accept: the path follows the authority.
            let target = head[range].map(HTTPHeaders.lowercased)
            let scheme: [UInt8] =
                target.starts(with: "http://".utf8)
                ? Array("http://".utf8) : target.starts(with: "https://".utf8) ? Array("https://".utf8) : []
            guard !scheme.isEmpty else { throw .malformed(.invalidTarget, offset: range.lowerBound) }
            let authority = range.lowerBound + scheme.count
            pathStart =
                head[authority..<range.upperBound].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
                ?? range.upperBound
            guard pathStart > authority else { throw .malformed(.invalidTarget, offset: authority) }
        }
        let queryMark = head[pathStart..<range.upperBound].firstIndex(of: UInt8(ascii: "?"))
        let query = queryMark.map { HTTPHeaders.latin1String(head[($0 + 1)..<range.upperBound]) }
        let path = try decodePath(head, pathStart..<(queryMark ?? range.upperBound))
        return (path, query)
    }

    /// Percent-decodes the path, then resolves its dot segments; an empty path (`http://host?x`) is `/`.
    private static func decodePath(_ head: [UInt8], _ range: Range<Int>) throws(HTTPParseError) -> String {
        var decoded: [UInt8] = []
        var offsets: [Int] = []
        var index = range.lowerBound
        while index < range.upperBound {
            var byte = head[index]
            let offset = index
            if byte == UInt8(ascii: "%") {
                guard index + 2 < range.upperBound, let high = hexValue(head[index + 1]),
                    let low = hexValue(head[index + 2])
                else { throw .malformed(.invalidPercentEncoding, offset: index) }
                byte = high << 4 | low
                if byte == 0 { throw .malformed(.nulByte, offset: index) }
                index += 2
            }
            decoded.append(byte)
            offsets.append(offset)
            index += 1
        }
        var segments: [ArraySlice<UInt8>] = []
        var endsWithSlash = true
        var segmentStart = 1
        while segmentStart <= decoded.count {
            let end = decoded[segmentStart...].firstIndex(of: UInt8(ascii: "/")) ?? decoded.count
            let segment = decoded[segmentStart..<end]
            endsWithSlash = false
            if segment.elementsEqual(".".utf8) {
                endsWithSlash = true
            } else if segment.elementsEqual("..".utf8) {
                guard segments.popLast() != nil else {
                    throw .malformed(.pathEscapesRoot, offset: offsets[segmentStart])
                }
                endsWithSlash = true
            } else {
                segments.append(segment)
            }
            segmentStart = end + 1
        }
        var resolved: [UInt8] = [UInt8(ascii: "/")]
        for (number, segment) in segments.enumerated() {
            if number > 0 { resolved.append(UInt8(ascii: "/")) }
            resolved.append(contentsOf: segment)
        }
        if endsWithSlash && !segments.isEmpty { resolved.append(UInt8(ascii: "/")) }
        guard let path = String(validating: resolved, as: UTF8.self) else {
            throw .malformed(.pathNotUTF8, offset: range.lowerBound)
        }
        return path
    }

    static func parseField(_ head: [UInt8], _ line: Range<Int>) throws(HTTPParseError) -> HTTPHeaders.Field {
        guard let first = head[line].first else { throw .malformed(.missingColon, offset: line.lowerBound) }
        if first == space || first == tab { throw .malformed(.obsoleteLineFolding, offset: line.lowerBound) }
        guard let colon = head[line].firstIndex(of: UInt8(ascii: ":")) else {
            throw .malformed(.missingColon, offset: line.upperBound)
        }
        if colon == line.lowerBound { throw .malformed(.invalidHeaderName, offset: colon) }
        for offset in line.lowerBound..<colon where !isTokenCharacter(head[offset]) {
            let byte = head[offset]
            throw .malformed(
                byte == space || byte == tab ? .whitespaceInHeaderName : .invalidHeaderName, offset: offset)
        }
        var valueStart = colon + 1
        var valueEnd = line.upperBound
        while valueStart < valueEnd && (head[valueStart] == space || head[valueStart] == tab) { valueStart += 1 }
        while valueEnd > valueStart && (head[valueEnd - 1] == space || head[valueEnd - 1] == tab) { valueEnd -= 1 }
        if let bad = head[valueStart..<valueEnd].firstIndex(where: { ($0 < 0x20 && $0 != tab) || $0 == 0x7F }) {
            throw .malformed(.controlCharacter, offset: bad)
        }
        return HTTPHeaders.Field(
            name: HTTPHeaders.latin1String(head[line.lowerBound..<colon]),
            value: HTTPHeaders.latin1String(head[valueStart..<valueEnd]))
    }

    /// RFC 9110 section 5.6.2's `tchar`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (0x30...0x39).contains(byte) ? Int(byte - 0x30) : nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
