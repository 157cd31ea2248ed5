/// One resolved service as `avahi-browse -rpt` prints it (`=;lo;IPv4;name;type;domain;host;
/// address;port;"txt" "txt"`), with the name's and the TXT strings' escapes undone.
struct BrowsedService: Equatable, CustomStringConvertible {
    var interface: String
    var name: String
    var type: String
    var host: String
    var address: String
    var port: UInt16
    var txt: [String]

    var description: String { "\(name) \(type) \(host) \(address):\(port) \(txt)" }

    /// The resolved services (`=` lines) of `avahi-browse -p` output; other lines are skipped.
    static func parse(_ output: String) -> [BrowsedService] {
        output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 10, fields[0] == "=", let port = UInt16(fields[8]) else { return nil }
            return BrowsedService(
                interface: fields[1], name: unescape(fields[3]), type: fields[4], host: fields[6],
                address: fields[7], port: port, txt: parseTXT(fields[9...].joined(separator: ";")))
        }
    }

    /// avahi-browse writes `;`, `\`, spaces and every byte outside printable ASCII as `\DDD`
    /// (decimal), and other escaped characters as `\c`.
    static func unescape(_ text: String) -> String {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = input.first else {
                bytes.append(byte)
                continue
            }
            let digits = input.prefix(3)
            if digits.count == 3, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let value = UInt8(String(decoding: digits, as: UTF8.self))
            {
                bytes.append(value)
                input.removeFirst(3)
            } else {
                bytes.append(next)
                input.removeFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The TXT field: quoted strings separated by spaces, `"a=b" "txtvers=1"`.
    private static func parseTXT(_ field: String) -> [String] {
        var strings: [String] = []
        var current: String?
        for character in field {
            switch (character, current) {
            case ("\"", nil): current = ""
            case ("\"", let text?):
                strings.append(text)
                current = nil
            case (_, let text?): current = text + String(character)
            case (_, nil): continue
            }
        }
        return strings
    }

    /// The resolved services of `type` the daemon knows now, from the default namespace (the
    /// browser talks to the daemon over D-Bus).
    static func browse(_ type: String) async -> [BrowsedService] {
        let result = await Command.run("/usr/bin/avahi-browse", ["-rpt", type], timeout: .seconds(5))
        return parse(result.stdout)
    }
}
