import Testing

@testable import OSCCore

/// The context that `dispatch(_:context:)` hands to the handlers it reaches.
@Suite struct OSCDispatcherContextTests {
    /// A context as a server would pass one: who sent the message, and which packet it was in.
    struct Request: Equatable {
        let sender: String
        let serial: Int
    }

    final class Recorder {
        var calls: [String] = []
    }

    /// Dispatches `address` with `context`, encoded and viewed in place as a server would.
    @discardableResult
    static func dispatch<Context>(
        _ dispatcher: OSCDispatcher, _ address: String, context: Context, _ arguments: [OSCArgument] = []
    ) throws -> Int {
        let bytes = OSCMessage(address, arguments).encoded()
        return try bytes.withUnsafeBytes { raw in
            try dispatcher.dispatch(try OSCMessageView(raw), context: context)
        }
    }

    static func knobs(_ recorder: Recorder) throws -> OSCDispatcher {
        let dispatcher = OSCDispatcher()
        for index in 0..<20 {
            try dispatcher.register("/knob/p\(index)", context: Request.self) { _, request in
                recorder.calls.append("p\(index) \(request.sender)#\(request.serial)")
            }
        }
        return dispatcher
    }

    @Test func sharedHandlerGetsEachRegistrationsTag() throws {
        let recorder = Recorder()
        let dispatcher = OSCDispatcher()
        let shared = OSCDispatcher.SharedHandler(context: Request.self) { message, request, tag in
            recorder.calls.append("\(message.address) \(tag) \(request.sender)")
        }
        var ids: [OSCMethodID] = []
        for index in 0..<5 {
            ids.append(try dispatcher.register("/knob/p\(index)", typeSpec: "f", handler: shared, tag: index * 10))
        }
        // A tag as wide as the table keeps it, and a plain handler beside the shared one.
        try dispatcher.register("/knob/p4", handler: shared, tag: -Int(Int32.max))
        try dispatcher.register("/knob/p4") { _ in recorder.calls.append("plain") }
        let request = Request(sender: "a", serial: 1)
        #expect(try Self.dispatch(dispatcher, "/knob/p3", context: request, [.float32(1)]) == 1)
        #expect(try Self.dispatch(dispatcher, "/knob/p[0-1]", context: request, [.int32(1)]) == 2)
        #expect(try Self.dispatch(dispatcher, "/knob/p4", context: request, [.float32(1)]) == 3)
        // The type spec is the registration's: a string skips the tagged `f` ones.
        #expect(try Self.dispatch(dispatcher, "/knob/p4", context: request, [.string("x")]) == 2)
        #expect(dispatcher.unregister(ids[3]))
        #expect(try Self.dispatch(dispatcher, "/knob/p3", context: request, [.float32(1)]) == 0)
        #expect(
            recorder.calls == [
                "/knob/p3 30 a", "/knob/p[0-1] 0 a", "/knob/p[0-1] 10 a",
                "/knob/p4 40 a", "/knob/p4 -2147483647 a", "plain",
                "/knob/p4 -2147483647 a", "plain",
            ])
    }

    @Test func exactAddressGetsTheDispatchedContext() throws {
        let recorder = Recorder()
        let dispatcher = try Self.knobs(recorder)
        try Self.dispatch(dispatcher, "/knob/p3", context: Request(sender: "alice", serial: 1))
        try Self.dispatch(dispatcher, "/knob/p3", context: Request(sender: "bob", serial: 2))
        #expect(recorder.calls == ["p3 alice#1", "p3 bob#2"])
    }

    @Test func patternGivesEveryReachedHandlerTheSameContext() throws {
        let recorder = Recorder()
        let dispatcher = try Self.knobs(recorder)
        let reached = try Self.dispatch(dispatcher, "/knob/p1*", context: Request(sender: "carol", serial: 7))
        #expect(reached == 11)
        #expect(recorder.calls == ["p1 carol#7"] + (10..<20).map { "p\($0) carol#7" })
    }

    @Test func nestedDispatchPassesItsOwnContextAndTheOuterOneComesBack() throws {
        let recorder = Recorder()
        let dispatcher = try Self.knobs(recorder)
        let inner = OSCMessage("/knob/p0").encoded()
        try dispatcher.register("/relay", context: Request.self) { [unowned dispatcher] _, request in
            recorder.calls.append("relay before \(request.sender)")
            inner.withUnsafeBytes { raw in
                _ = try? dispatcher.dispatch(
                    try! OSCMessageView(raw), context: Request(sender: "inner", serial: request.serial + 1))
            }
            recorder.calls.append("relay after \(request.sender)")
        }
        try dispatcher.register("/relay", context: Request.self) { _, request in
            recorder.calls.append("second \(request.sender)#\(request.serial)")
        }
        try Self.dispatch(dispatcher, "/relay", context: Request(sender: "outer", serial: 1))
        #expect(
            recorder.calls == ["relay before outer", "p0 inner#2", "relay after outer", "second outer#1"])
    }

    @Test func plainAndContextHandlersShareAnAddress() throws {
        let recorder = Recorder()
        let dispatcher = OSCDispatcher()
        try dispatcher.register("/mix") { _ in recorder.calls.append("plain") }
        try dispatcher.register("/mix", typeSpec: "f", context: Request.self) { message, request in
            recorder.calls.append("context \(request.sender) \(message.float(at: 0)!)")
        }
        let request = Request(sender: "dave", serial: 1)
        let reached = try Self.dispatch(dispatcher, "/mix", context: request, [.float32(0.5)])
        #expect(reached == 2)
        #expect(recorder.calls == ["plain", "context dave 0.5"])
    }

    @Test func contextFallbackGetsTheContextAndThePlainOneStaysForOtherDispatches() throws {
        let recorder = Recorder()
        let dispatcher = try Self.knobs(recorder)
        dispatcher.fallback = { message in recorder.calls.append("plain fallback \(message.address)") }
        dispatcher.setFallback(context: Request.self) { message, request in
            recorder.calls.append("fallback \(message.address) \(request.sender)#\(request.serial)")
        }
        #expect(try Self.dispatch(dispatcher, "/nobody", context: Request(sender: "erin", serial: 4)) == 0)
        // Another context type, and no context: the plain fallback.
        #expect(try Self.dispatch(dispatcher, "/nobody", context: 42) == 0)
        #expect(try OSCDispatcherTests.dispatch(dispatcher, "/nobody") == 0)
        dispatcher.setFallback(context: Request.self, nil)
        try Self.dispatch(dispatcher, "/gone", context: Request(sender: "frank", serial: 5))
        #expect(
            recorder.calls == [
                "fallback /nobody erin#4", "plain fallback /nobody", "plain fallback /nobody", "plain fallback /gone",
            ])
    }

    @Test func plainHandlersRunInDispatchesWithAContext() throws {
        let recorder = Recorder()
        let dispatcher = OSCDispatcher()
        try dispatcher.register("/plain") { _ in recorder.calls.append("plain") }
        try Self.dispatch(dispatcher, "/plain", context: Request(sender: "gina", serial: 1))
        try OSCDispatcherTests.dispatch(dispatcher, "/plain")
        #expect(recorder.calls == ["plain", "plain"])
    }

    @Test func contextHandlerReachedWithoutAContextTraps() async {
        await #expect(processExitsWith: .failure) {
            let dispatcher = OSCDispatcher()
            try dispatcher.register("/needs", context: Request.self) { _, _ in }
            try OSCDispatcherTests.dispatch(dispatcher, "/needs")
        }
    }

    @Test func contextHandlerReachedWithAnotherContextTypeTraps() async {
        await #expect(processExitsWith: .failure) {
            let dispatcher = OSCDispatcher()
            try dispatcher.register("/needs", context: Request.self) { _, _ in }
            try OSCDispatcherContextTests.dispatch(dispatcher, "/needs", context: "a string")
        }
    }
}
