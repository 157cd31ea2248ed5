import Testing

@testable import OSCCore

@Suite struct OSCDispatcherTests {
    /// Dispatches `message`, encoded and viewed in place as a server would.
    @discardableResult
    static func dispatch(
        _ dispatcher: OSCDispatcher, _ address: String, _ arguments: [OSCArgument] = []
    ) throws -> Int {
        let bytes = OSCMessage(address, arguments).encoded()
        var options = OSCDecodingOptions.default
        options.requiresSlashAddress = false
        return try bytes.withUnsafeBytes { raw in
            let view = try OSCMessageView(raw, options: options)
            return try dispatcher.dispatch(view)
        }
    }

    /// A dispatcher with `/knob/p0` … `/knob/p99` and a few other branches, recording calls.
    final class Recorder {
        var calls: [String] = []
    }

    static func knobs(_ recorder: Recorder) throws -> OSCDispatcher {
        let dispatcher = OSCDispatcher()
        for index in 0..<100 {
            try dispatcher.register("/knob/p\(index)") { _ in recorder.calls.append("p\(index)") }
        }
        for name in ["gain", "mix", "tone"] {
            try dispatcher.register("/toggle/\(name)") { _ in recorder.calls.append(name) }
        }
        try dispatcher.register("/a/b/c") { _ in recorder.calls.append("abc") }
        try dispatcher.register("/a/x/y/c") { _ in recorder.calls.append("axyc") }
        try dispatcher.register("/a") { _ in recorder.calls.append("a") }
        return dispatcher
    }

    @Test func exactAddressReachesItsHandler() throws {
        let recorder = Recorder()
        let dispatcher = try Self.knobs(recorder)
        #expect(try Self.dispatch(dispatcher, "/knob/p50", [.float32(0.5)]) == 1)
        #expect(try Self.dispatch(dispatcher, "/knob/p99") == 1)
        #expect(try Self.dispatch(dispatcher, "/a") == 1)
        #expect(recorder.calls == ["p50", "p99", "a"])
        // Exact addresses are hashed: no part of the tree is visited.
        #expect(dispatcher.table.visits == 0)
    }

    @Test func unregisteredAddressReachesNothing() throws {
        let recorder = Recorder()
        let dispatcher = try Self.knobs(recorder)
        #expect(try Self.dispatch(dispatcher, "/knob/p100") == 0)
        #expect(try Self.dispatch(dispatcher, "/knob") == 0)
        #expect(try Self.dispatch(dispatcher, "/a/b") == 0)
        #expect(recorder.calls.isEmpty)
    }

    struct PatternCase: Sendable, CustomTestStringConvertible {
        let pattern: String
        let reached: [String]
        var testDescription: String { pattern }
    }

    static let patternCases: [PatternCase] = [
        PatternCase(pattern: "/knob/p1*", reached: ["p1"] + (10...19).map { "p\($0)" }),
        PatternCase(pattern: "/knob/p?", reached: (0...9).map { "p\($0)" }),
        PatternCase(pattern: "/knob/p[5-6]0", reached: ["p50", "p60"]),
        PatternCase(pattern: "/knob/p[!0-8]", reached: ["p9"]),
        PatternCase(pattern: "/knob/p{7,42,x}", reached: ["p42", "p7"]),
        PatternCase(pattern: "/toggle/*", reached: ["gain", "mix", "tone"]),
        PatternCase(pattern: "/*/gain", reached: ["gain"]),
        PatternCase(pattern: "/*/*i*", reached: ["gain", "mix"]),
        PatternCase(pattern: "//c", reached: ["abc", "axyc"]),
        PatternCase(pattern: "/a//c", reached: ["abc", "axyc"]),
        PatternCase(pattern: "/a//", reached: ["a", "abc", "axyc"]),
        PatternCase(pattern: "//gain", reached: ["gain"]),
        PatternCase(pattern: "/*", reached: ["a"]),
        PatternCase(pattern: "/knob/q*", reached: []),
        PatternCase(pattern: "/knob/p1*/x", reached: []),
    ]

    @Test(arguments: patternCases)
    func patternReachesEveryMatchingAddress(_ testCase: PatternCase) throws {
        let recorder = Recorder()
        let dispatcher = try Self.knobs(recorder)
        let reached = try Self.dispatch(dispatcher, testCase.pattern)
        #expect(reached == testCase.reached.count)
        #expect(recorder.calls.sorted() == testCase.reached.sorted())
        // Each address once, even for `//`, and the same again from the cache.
        recorder.calls.removeAll()
        #expect(try Self.dispatch(dispatcher, testCase.pattern) == testCase.reached.count)
        #expect(recorder.calls.sorted() == testCase.reached.sorted())
    }

    @Test func patternVisitsOnlyChildrenThatCanMatch() throws {
        let recorder = Recorder()
        let dispatcher = try Self.knobs(recorder)
        for index in 0..<1000 {
            try dispatcher.register("/other/q\(index)") { _ in }
        }
        #expect(try Self.dispatch(dispatcher, "/knob/p1*") == 11)
        // `knob` among the 3 roots' children, then the 11 children that start with `p1`.
        #expect(dispatcher.table.visits == 1 + 11)
        // The same pattern again comes from the cache: no visit at all.
        #expect(try Self.dispatch(dispatcher, "/knob/p1*") == 11)
        #expect(dispatcher.table.visits == 12)
        // A literal part is found by binary search, a class with a literal prefix narrows too.
        #expect(try Self.dispatch(dispatcher, "/knob/p9[0-3]") == 4)
        #expect(dispatcher.table.visits == 12 + 1 + 11)
    }

    @Test func severalHandlersOnOneAddressRunInRegistrationOrder() throws {
        let dispatcher = OSCDispatcher()
        let recorder = Recorder()
        for name in ["first", "second", "third"] {
            try dispatcher.register("/knob/gain") { _ in recorder.calls.append(name) }
        }
        #expect(try Self.dispatch(dispatcher, "/knob/gain", [.float32(1)]) == 3)
        #expect(try Self.dispatch(dispatcher, "/knob/g*", [.float32(1)]) == 3)
        #expect(recorder.calls == ["first", "second", "third", "first", "second", "third"])
    }

    struct TypeSpecCase: Sendable, CustomTestStringConvertible {
        let typeSpec: String?
        let arguments: [OSCArgument]
        let reached: Bool
        var testDescription: String {
            "\(typeSpec ?? "nil") with \(String(decoding: arguments.map(\.typeTag), as: UTF8.self))"
        }
    }

    static let typeSpecCases: [TypeSpecCase] = [
        TypeSpecCase(typeSpec: "f", arguments: [.float32(0.5)], reached: true),
        TypeSpecCase(typeSpec: "f", arguments: [.int32(3)], reached: true),
        TypeSpecCase(typeSpec: "f", arguments: [.int64(3)], reached: true),
        TypeSpecCase(typeSpec: "f", arguments: [.double(0.25)], reached: true),
        TypeSpecCase(typeSpec: "i", arguments: [.float32(2.5)], reached: true),
        TypeSpecCase(typeSpec: "f", arguments: [.string("0.5")], reached: false),
        TypeSpecCase(typeSpec: "f", arguments: [.true], reached: false),
        TypeSpecCase(typeSpec: "f", arguments: [], reached: false),
        TypeSpecCase(typeSpec: "f", arguments: [.float32(1), .float32(2)], reached: false),
        TypeSpecCase(typeSpec: "ff", arguments: [.int32(1), .double(2)], reached: true),
        TypeSpecCase(typeSpec: "ff", arguments: [.float32(1)], reached: false),
        TypeSpecCase(typeSpec: "s", arguments: [.string("x")], reached: true),
        TypeSpecCase(typeSpec: "s", arguments: [.symbol("x")], reached: true),
        TypeSpecCase(typeSpec: "S", arguments: [.string("x")], reached: true),
        TypeSpecCase(typeSpec: "s", arguments: [.int32(1)], reached: false),
        TypeSpecCase(typeSpec: "b", arguments: [.blob([1])], reached: true),
        TypeSpecCase(typeSpec: "b", arguments: [.string("x")], reached: false),
        TypeSpecCase(typeSpec: "", arguments: [], reached: true),
        TypeSpecCase(typeSpec: "", arguments: [.int32(1)], reached: false),
        TypeSpecCase(typeSpec: nil, arguments: [.string("x"), .blob([])], reached: true),
        TypeSpecCase(typeSpec: nil, arguments: [], reached: true),
    ]

    @Test(arguments: typeSpecCases)
    func typeSpecCoercesWithinNumbersAndStrings(_ testCase: TypeSpecCase) throws {
        let dispatcher = OSCDispatcher()
        var received: [OSCArgument] = []
        try dispatcher.register("/knob/gain", typeSpec: testCase.typeSpec) { message in
            received = message.makeMessage().arguments
        }
        let expected = testCase.reached ? 1 : 0
        #expect(try Self.dispatch(dispatcher, "/knob/gain", testCase.arguments) == expected)
        #expect(try Self.dispatch(dispatcher, "/knob/g?in", testCase.arguments) == expected)
        #expect(received == (testCase.reached ? testCase.arguments : []))
    }

    @Test func floatHandlerReadsCoercedValues() throws {
        let dispatcher = OSCDispatcher()
        var values: [Float] = []
        try dispatcher.register("/knob/gain", typeSpec: "f") { message in
            values.append(message.float(at: 0) ?? .nan)
        }
        for argument: OSCArgument in [.float32(0.5), .int32(3), .int64(-2), .double(0.25)] {
            try Self.dispatch(dispatcher, "/knob/gain", [argument])
        }
        #expect(values == [0.5, 3, -2, 0.25])
    }

    @Test func typeSpecMismatchSkipsOnlyThatHandler() throws {
        let dispatcher = OSCDispatcher()
        let recorder = Recorder()
        try dispatcher.register("/knob/gain", typeSpec: "s") { _ in recorder.calls.append("s") }
        try dispatcher.register("/knob/gain", typeSpec: "f") { _ in recorder.calls.append("f") }
        try dispatcher.register("/knob/gain") { _ in recorder.calls.append("any") }
        #expect(try Self.dispatch(dispatcher, "/knob/gain", [.int32(1)]) == 2)
        #expect(recorder.calls == ["f", "any"])
    }

    @Test func unregisterRemovesOneHandler() throws {
        let dispatcher = OSCDispatcher()
        let recorder = Recorder()
        let first = try dispatcher.register("/knob/gain") { _ in recorder.calls.append("first") }
        try dispatcher.register("/knob/gain") { _ in recorder.calls.append("second") }
        let other = try dispatcher.register("/knob/mix") { _ in recorder.calls.append("mix") }
        #expect(try Self.dispatch(dispatcher, "/knob/*") == 3)
        #expect(dispatcher.unregister(first))
        #expect(dispatcher.unregister(first) == false)
        #expect(dispatcher.count == 2)
        // The cached pattern must not reach the removed handler.
        #expect(try Self.dispatch(dispatcher, "/knob/*") == 2)
        #expect(dispatcher.unregister(other))
        #expect(try Self.dispatch(dispatcher, "/knob/mix") == 0)
        #expect(try Self.dispatch(dispatcher, "/knob/gain") == 1)
        #expect(recorder.calls == ["first", "second", "mix", "second", "mix", "second"])
        #expect(dispatcher.unregisterAll(address: "/knob/gain") == 1)
        #expect(dispatcher.count == 0)
    }

    @Test func registeringInvalidatesCachedPatterns() throws {
        let dispatcher = OSCDispatcher()
        try dispatcher.register("/knob/p1") { _ in }
        #expect(try Self.dispatch(dispatcher, "/knob/p*") == 1)
        try dispatcher.register("/knob/p2") { _ in }
        #expect(try Self.dispatch(dispatcher, "/knob/p*") == 2)
        dispatcher.removeAll()
        #expect(try Self.dispatch(dispatcher, "/knob/p*") == 0)
    }

    @Test func fallbackGetsWhatNoHandlerTook() throws {
        let dispatcher = OSCDispatcher()
        var fallen: [String] = []
        dispatcher.fallback = { fallen.append($0.address) }
        try dispatcher.register("/knob/gain", typeSpec: "f") { _ in }
        #expect(try Self.dispatch(dispatcher, "/knob/gain", [.float32(1)]) == 1)
        #expect(try Self.dispatch(dispatcher, "/knob/mix", [.float32(1)]) == 0)
        #expect(try Self.dispatch(dispatcher, "/knob/gain", [.string("loud")]) == 0)
        #expect(try Self.dispatch(dispatcher, "/toggle/*") == 0)
        #expect(fallen == ["/knob/mix", "/knob/gain", "/toggle/*"])
    }

    @Test func invalidAddressThrowsAndSkipsTheFallback() throws {
        let dispatcher = OSCDispatcher()
        var fallen = 0
        dispatcher.fallback = { _ in fallen += 1 }
        try dispatcher.register("/knob/gain") { _ in }
        #expect(throws: OSCAddressError.unterminatedBracket(offset: 6)) {
            try Self.dispatch(dispatcher, "/knob/[ab")
        }
        #expect(throws: OSCAddressError.invalidCharacter(0x20, offset: 5)) {
            try Self.dispatch(dispatcher, "/knob gain")
        }
        #expect(throws: OSCAddressError.missingLeadingSlash(found: UInt8(ascii: "k"))) {
            try Self.dispatch(dispatcher, "knob")
        }
        #expect(fallen == 0)
    }

    @Test func registerRejectsPatternsAndBadAddresses() {
        let dispatcher = OSCDispatcher()
        #expect(throws: OSCAddressError.patternCharacterInAddress(UInt8(ascii: "*"), offset: 6)) {
            try dispatcher.register("/knob/*") { _ in }
        }
        #expect(throws: OSCAddressError.emptySegment(offset: 6)) {
            try dispatcher.register("/knob/") { _ in }
        }
        #expect(dispatcher.count == 0)
    }

    @Test func handlersMayChangeTheTableWhileDispatching() throws {
        let dispatcher = OSCDispatcher()
        let recorder = Recorder()
        var ids: [OSCMethodID] = []
        // `unowned`: a handler that holds its dispatcher strongly makes a reference cycle.
        try dispatcher.register("/knob/a") { [unowned dispatcher] _ in
            recorder.calls.append("a")
            // Removing a handler that this dispatch is about to reach: it still runs this time.
            for id in ids {
                dispatcher.unregister(id)
            }
            ids.removeAll()
            _ = try? dispatcher.register("/knob/c") { _ in recorder.calls.append("c") }
        }
        ids.append(try dispatcher.register("/knob/b") { _ in recorder.calls.append("b") })
        try dispatcher.register("/nested") { [unowned dispatcher] _ in
            recorder.calls.append("nested")
            _ = try? Self.dispatch(dispatcher, "/knob/c")
        }
        #expect(try Self.dispatch(dispatcher, "/knob/*") == 2)
        #expect(recorder.calls == ["a", "b"])
        #expect(try Self.dispatch(dispatcher, "/knob/{b,c}") == 1)
        #expect(try Self.dispatch(dispatcher, "/nested") == 1)
        #expect(recorder.calls == ["a", "b", "c", "nested", "c"])
    }

    @Test func hostilePatternAgainstManyAddressesIsBounded() throws {
        let dispatcher = OSCDispatcher()
        for index in 0..<200 {
            try dispatcher.register("/" + String(repeating: "a", count: 30) + "/p\(index)") { _ in }
        }
        let hostile = "/" + String(repeating: "*a", count: 12) + "*b/*"
        #expect(try Self.dispatch(dispatcher, hostile) == 0)
        // One part tested (the only child of the root), linear in its length.
        #expect(dispatcher.table.visits == 1)
        #expect(dispatcher.table.steps < 200)
        let doubleSlash = "//" + String(repeating: "*a", count: 12) + "*b"
        #expect(try Self.dispatch(dispatcher, doubleSlash) == 0)
        #expect(dispatcher.table.visits == 1 + 200)
        #expect(dispatcher.table.steps < 200 + 200 * 200)
    }

    @Test func everyOneOfManyAddressesIsFoundByHash() throws {
        let dispatcher = OSCDispatcher()
        var reached: [Int] = []
        for index in 0..<3_000 {
            try dispatcher.register("/group\(index % 7)/param\(index)") { _ in reached.append(index) }
        }
        for index in stride(from: 2_999, through: 0, by: -1) {
            #expect(try Self.dispatch(dispatcher, "/group\(index % 7)/param\(index)") == 1)
        }
        #expect(reached == Array((0..<3_000).reversed()))
        #expect(dispatcher.table.visits == 0)
        #expect(try Self.dispatch(dispatcher, "/group1/param0") == 0)
    }

    @Test func patternsTooLongForTheCacheStillDispatch() throws {
        let recorder = Recorder()
        let dispatcher = try Self.knobs(recorder)
        let long = "/knob/p1" + String(repeating: "*", count: 300)
        #expect(try Self.dispatch(dispatcher, long) == 11)
        #expect(try Self.dispatch(dispatcher, long) == 11)
        // Not cached: both dispatches walked the tree.
        #expect(dispatcher.table.visits == 2 * (1 + 11))
        #expect(recorder.calls.count == 22)
    }

    @Test func replacedTablesAreFreedOnceNoDispatchUsesThem() throws {
        let dispatcher = OSCDispatcher()
        try dispatcher.register("/a") { _ in }
        weak let first = dispatcher.table
        #expect(first != nil)
        try dispatcher.register("/b") { _ in }
        #expect(first == nil)

        weak var during: OSCDispatchTable?
        var aliveInside = false
        try dispatcher.register("/c") { [unowned dispatcher] _ in
            _ = try? dispatcher.register("/d") { _ in }
            aliveInside = during != nil
        }
        during = dispatcher.table
        #expect(try Self.dispatch(dispatcher, "/c") == 1)
        #expect(aliveInside)
        #expect(during == nil)
    }
}
