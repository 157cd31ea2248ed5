import Testing

@testable import OSCCore

/// The table's tree, laid out from the registrations sorted by address, against a reference
/// that knows nothing of how it is built: every address compared with every pattern.
@Suite struct OSCDispatcherOrderTests {
    /// An address as its parts, for the reference order: part by part, a part before the longer
    /// parts it starts.
    static func parts(_ address: String) -> [[UInt8]] {
        address.utf8.split(separator: UInt8(ascii: "/")).map(Array.init)
    }

    static func precedesInTree(_ left: String, _ right: String) -> Bool {
        parts(left).lexicographicallyPrecedes(parts(right)) { $0.lexicographicallyPrecedes($1) }
    }

    /// What `pattern` should reach, in order: the matching registrations, their addresses in tree
    /// order and each address's handlers in registration order.
    static func expected(_ pattern: String, among registrations: [(address: String, name: Int)]) throws -> [Int] {
        let patternBytes = Array(pattern.utf8)
        let matching = try registrations.filter { registration in
            let address = Array(registration.address.utf8)
            return try patternBytes.withUnsafeBytes { pattern in
                try address.withUnsafeBytes { try OSCAddressPattern.matches(pattern: pattern, address: $0) }
            }
        }
        let addresses = Set(matching.map(\.address)).sorted(by: precedesInTree)
        return addresses.flatMap { address in matching.filter { $0.address == address }.map(\.name) }
    }

    final class Recorder {
        var calls: [Int] = []
    }

    @Test func patternsReachAddressesPartByPartWhereByteOrderDiffers() throws {
        let dispatcher = OSCDispatcher()
        let recorder = Recorder()
        // In byte order `/a-x` and `/a.b/c` come before `/a/b` (`-` and `.` are below `/`); in
        // the tree, `/a`'s subtree comes first.
        let addresses = ["/ab", "/a.b/c", "/a/b/c", "/a-x", "/a", "/a/b"]
        for (name, address) in addresses.enumerated() {
            try dispatcher.register(address) { _ in recorder.calls.append(name) }
        }
        #expect(try OSCDispatcherTests.dispatch(dispatcher, "/a//") == 3)
        #expect(try OSCDispatcherTests.dispatch(dispatcher, "//*") == 6)
        let inTree = ["/a", "/a/b", "/a/b/c", "/a-x", "/a.b/c", "/ab"].map { addresses.firstIndex(of: $0)! }
        #expect(recorder.calls == Array(inTree[0..<3]) + inTree)
    }

    @Test func everyPatternReachesWhatTheReferenceFinds() throws {
        var generator = SeededGenerator(seed: 0x7EE5)
        let alphabet = ["a", "b", "-", ".", "1", "ab", "a-", "a.b"]
        var registrations: [(address: String, name: Int)] = []
        for name in 0..<1_500 {
            let depth = Int.random(in: 1...4, using: &generator)
            var address = ""
            for _ in 0..<depth {
                address += "/" + alphabet.randomElement(using: &generator)!
                if Bool.random(using: &generator) {
                    address += alphabet.randomElement(using: &generator)!
                }
            }
            registrations.append((address, name))
        }
        let patterns = [
            "//*", "/a*", "/a//", "/*/b*", "//a-*", "/a/*/1", "/{a,ab}/*", "/[!a]*", "/a?/b", "//.", "/*/*/*/*",
            "/a.b//a",
        ]

        let dispatcher = OSCDispatcher()
        let recorder = Recorder()
        var ids: [OSCMethodID] = []
        for registration in registrations {
            let name = registration.name
            ids.append(
                try dispatcher.register(registration.address, typeSpec: "f") { _ in recorder.calls.append(name) })
        }
        try check(dispatcher, recorder, registrations, patterns)

        // Unregister two of every three: the store's gaps are closed, and the rest still reached.
        let sizeBefore = dispatcher.storeSize
        for (index, id) in ids.enumerated() where index % 3 != 0 {
            #expect(dispatcher.unregister(id))
        }
        let kept = registrations.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        // Each kept registration's address and its one-byte type spec; gaps never above
        // 4 KiB or half the store.
        let live = kept.reduce(0) { $0 + $1.address.utf8.count + 1 }
        #expect(dispatcher.storeSize < sizeBefore)
        #expect(dispatcher.storeSize - live <= max(4096, live))
        try check(dispatcher, recorder, kept, patterns)

        // And by address: every handler on the first kept address goes.
        let gone = kept[0].address
        let removed = dispatcher.unregisterAll(address: gone)
        #expect(removed == kept.filter { $0.address == gone }.count)
        try check(dispatcher, recorder, kept.filter { $0.address != gone }, patterns)
    }

    private func check(
        _ dispatcher: OSCDispatcher, _ recorder: Recorder, _ registrations: [(address: String, name: Int)],
        _ patterns: [String]
    ) throws {
        #expect(dispatcher.count == registrations.count)
        for pattern in patterns {
            recorder.calls.removeAll()
            let expected = try Self.expected(pattern, among: registrations)
            #expect(try OSCDispatcherTests.dispatch(dispatcher, pattern, [.float32(1)]) == expected.count)
            #expect(recorder.calls == expected, "\(pattern)")
        }
        for address in Set(registrations.map(\.address)).sorted().prefix(200) {
            recorder.calls.removeAll()
            let expected = registrations.filter { $0.address == address }.map(\.name)
            #expect(try OSCDispatcherTests.dispatch(dispatcher, address, [.int32(1)]) == expected.count)
            #expect(recorder.calls == expected, "\(address)")
        }
        // The wrong arguments reach nobody.
        recorder.calls.removeAll()
        #expect(try OSCDispatcherTests.dispatch(dispatcher, "//*", [.string("x")]) == 0)
        #expect(recorder.calls.isEmpty)
    }
}
