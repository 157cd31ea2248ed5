import Foundation
import Locking
import OSCCore
import OSCTransport
import Parameters
import Testing

@testable import KnobLink

/// PROTOCOL.md section 3: every system message.
@Suite struct SystemMessageTests {
    @Test func subscribeSendsCurrentValuesBetweenUpdateBrackets() async throws {
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        peer.send("/sys/subscribe", [.string(peer.url), .string("/amp/*")])
        #expect(await peer.wait { $0.last?.address == "/sys/update" && $0.last?.arguments == [.int32(0)] })
        let addresses = peer.messages.map(\.address)
        #expect(addresses.first == "/sys/update")
        #expect(addresses.dropFirst().dropLast().allSatisfy { $0.hasPrefix("/amp/") })
        #expect(addresses.count == 2 + 6)
        // Rule 9.8: again with the same pattern replaces and sends the values again.
        peer.clear()
        peer.send("/sys/subscribe", [.string(peer.url), .string("/amp/*"), .float32(0), .int32(4)])
        #expect(await peer.wait { $0.last?.arguments == [.int32(0)] && $0.count == 8 })
        #expect(peer.messages.dropFirst().dropLast().allSatisfy { $0.address.hasSuffix("/raw") })
        #expect(fixture.statistic("subscribers") == 1)
    }

    @Test func subscribeForAnotherURL() async throws {
        let fixture = try ServerFixture { $0.implicitSubscriptions = false }
        let controller = try fixture.peer()
        let listener = try fixture.peer()
        controller.send("/sys/subscribe", [.string(listener.url), .string("/knob/gain")])
        #expect(await listener.wait { $0.last?.arguments == [.int32(0)] })
        listener.clear()
        controller.send("/knob/gain/raw", [.float32(-30)])
        #expect(close(await listener.next("/knob/gain")?.float, Float(30.0 / 72)))
        #expect(controller.messages.isEmpty)
    }

    @Test func unsubscribeEndsSubscriptions() async throws {
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        let other = try fixture.peer()
        await peer.subscribe(pattern: "/knob/*")
        await peer.subscribe(pattern: "/amp/*")
        peer.send("/sys/unsubscribe", [.string(peer.url), .string("/knob/*")])
        await peer.sync()
        other.send("/knob/pan", [.float32(0.9)])
        other.send("/amp/sustain", [.float32(0.9)])
        #expect(await peer.next("/amp/sustain") != nil)
        #expect(peer.messages("/knob/pan").isEmpty)
        peer.send("/sys/unsubscribe", [.string(peer.url)])
        await peer.sync()
        #expect(fixture.statistic("subscribers") == 1)  // `other`, implicitly
        peer.clear()
        other.send("/amp/sustain", [.float32(0.1)])
        await other.sync()
        try await Task.sleep(for: .milliseconds(50))
        #expect(peer.messages("/amp/sustain").isEmpty)
    }

    @Test func refreshSendsEveryValue() async throws {
        let fixture = try ServerFixture { $0.implicitSubscriptions = false }
        let peer = try fixture.peer()
        peer.send("/sys/refresh")
        #expect(await peer.wait { $0.last?.arguments == [.int32(0)] })
        #expect(peer.messages.count == fixture.tree.allParameters.count + 2)
    }

    @Test func listDescribesEveryParameterInRawUnits() async throws {
        let fixture = try ServerFixture { $0.implicitSubscriptions = false }
        let peer = try fixture.peer()
        fixture.tree.parameter(forKeyPath: "knob.gain")!.setValue(-6)
        peer.send("/sys/list")
        #expect(await peer.wait { $0.last?.arguments == [.int32(0)] })
        let params = peer.messages("/sys/param")
        #expect(params.count == fixture.tree.allParameters.count)
        #expect(
            params.first { $0.arguments.first == .string("/knob/gain") }?.arguments == [
                .string("/knob/gain"), .string("Gain"), .string("dB"), .float32(-60), .float32(12), .float32(0),
                .float32(-6),
            ])
    }

    @Test func groupsNameEverySectionWithTheRoot() async throws {
        let fixture = try ServerFixture {
            $0.implicitSubscriptions = false
            $0.root = "/inst1"
        }
        let peer = try fixture.peer()
        peer.send("/sys/groups")
        #expect(await peer.wait { $0.last?.arguments == [.int32(0)] })
        let groups = peer.messages("/sys/group")
        #expect(groups.count == fixture.tree.allGroups.count)
        #expect(groups.first?.arguments == [.string("/inst1/knob"), .string("Knob")])
    }

    @Test func listIsSplitIntoDatagramsWithinTheLimit() async throws {
        let specs = (0..<400).map { index in
            ParameterNodeSpec.parameter(
                ParameterSpec(
                    identifier: "parameter\(index)", displayName: "A parameter with a long name \(index)",
                    address: UInt64(index), minValue: 0, maxValue: 1, defaultValue: 0))
        }
        let fixture = try ServerFixture(tree: try ParameterTree(children: specs)) { $0.implicitSubscriptions = false }
        let peer = try fixture.peer()
        peer.send("/sys/list")
        #expect(await peer.wait { $0.last?.arguments == [.int32(0)] })
        #expect(peer.messages("/sys/param").count == 400)
        #expect(peer.packetCount > 1)
        #expect(peer.largestPacket <= 8192)
    }

    @Test func pingAnswersNameAndVersion() async throws {
        let fixture = try ServerFixture { $0.name = "studio" }
        let peer = try fixture.peer()
        let pong = await peer.request("/sys/ping", reply: "/sys/pong")
        #expect(pong?.arguments == [.string("studio"), .string(KnobLinkServer.version)])
        let listener = try fixture.peer()
        peer.send("/sys/ping", [.string(listener.url)])
        #expect(await listener.next("/sys/pong") != nil)
    }

    @Test func statsNamesEveryCounter() async throws {
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        peer.send("/nothing/here")
        let stats = await peer.request("/sys/stats", reply: "/sys/stats")
        let arguments = stats?.arguments ?? []
        var values: [String: Int32] = [:]
        for pair in stride(from: 0, to: arguments.count - 1, by: 2) {
            if case .string(let name) = arguments[pair], case .int32(let value) = arguments[pair + 1] {
                values[name] = value
            }
        }
        #expect(values["unknownAddress"] == 1)
        #expect(values.count == fixture.server.statistics().count)
    }

    @Test func presetsSaveListLoadDelete() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "knoblink-presets-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = try ServerFixture { $0.presetsDirectory = directory.path }
        let peer = try fixture.peer()
        let listener = try fixture.peer()
        await peer.subscribe()
        await listener.subscribe()
        let gain = fixture.tree.parameter(forKeyPath: "knob.gain")!
        gain.setValue(-6)
        peer.send("/sys/preset/save", [.string("Lead")])
        await peer.sync()
        peer.send("/sys/preset/list")
        #expect(await peer.wait { $0.contains { $0.address == "/sys/preset" } })
        #expect(peer.messages("/sys/preset").map(\.string) == ["Lead"])
        gain.setValue(0)
        await listener.wait { close($0.last { $0.address == "/knob/gain" }?.float, Float(gain.normalize(0))) }
        peer.clear()
        listener.clear()
        peer.send("/sys/preset/load", [.string("Lead")])
        // Rule 9.15: echoed to every subscriber, the requester included.
        #expect(close(await peer.next("/knob/gain")?.float, Float(gain.normalize(-6))))
        #expect(close(await listener.next("/knob/gain")?.float, Float(gain.normalize(-6))))
        #expect(gain.value == -6)
        peer.send("/sys/preset/load", [.string("Missing")])
        #expect(await peer.next("/sys/error")?.arguments.first == .string("/sys/preset/load"))
        peer.send("/sys/preset/delete", [.string("Lead")])
        await peer.sync()
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("Lead.json").path))
    }

    @Test func presetsWithoutDirectoryAreRefused() async throws {
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        peer.send("/sys/preset/save", [.string("x")])
        #expect(
            await peer.next("/sys/error")?.arguments == [.string("/sys/preset/save"), .string("no presets directory")])
    }

    @Test func badSubscribeArgumentsGetErrors() async throws {
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        peer.send("/sys/subscribe", [.string(peer.url), .string("/knob/[")])
        #expect(await peer.next("/sys/error")?.arguments.first == .string("/sys/subscribe"))
        #expect(fixture.statistic("subscribers") == 0)
    }

    @Test func repliesGoToTheSendersIPAndTheFeedbackPort() async throws {
        // Rule 9.1: replies go to the feedback port; the sender's own port gets nothing.
        let listener = try OSCUDPServer(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let heard = Locked<[String]>([])
        listener.start { bytes, _ in
            if let message = try? OSCMessageView(bytes) { heard.withLock { $0.append(message.address) } }
        }
        let fixture = try ServerFixture { $0.feedbackPort = .fixed(listener.localAddress.port) }
        let sender = try fixture.peer()
        sender.send("/sys/ping")
        let deadline = ContinuousClock.now + .seconds(5)
        while heard.withLock({ $0.isEmpty }) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(heard.withLock { $0 } == ["/sys/pong"])
        #expect(sender.messages.isEmpty)
    }

    /// An error about a request that carries a reply url goes to the url, where the asker listens;
    /// other errors go to the feedback port.
    @Test(arguments: [
        ("/knob/nope/get", "unknown address"), ("/knob/gain/info/x", nil), ("/sys/preset/list", "no presets directory"),
    ])
    func errorsAboutARequestGoToItsReplyURL(address: String, reason: String?) async throws {
        let listener = try OSCUDPServer(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let heard = Locked<[String]>([])
        listener.start { bytes, _ in
            if let message = try? OSCMessageView(bytes) { heard.withLock { $0.append(message.address) } }
        }
        let fixture = try ServerFixture {
            $0.feedbackPort = .fixed(listener.localAddress.port)
            $0.implicitSubscriptions = false
        }
        let sender = try fixture.peer()
        let asker = try fixture.peer()
        sender.send(address, [.string(asker.url)])
        if let reason {
            #expect(await asker.next("/sys/error")?.arguments == [.string(address), .string(reason)])
        }
        // A ping's answer goes to the feedback port after any error sent there (one socket, in order).
        sender.send("/sys/ping")
        let deadline = ContinuousClock.now + .seconds(5)
        while !heard.withLock({ $0.contains("/sys/pong") }) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        // `info/x` is an unknown address that takes no url: the sender's feedback port is told.
        #expect(heard.withLock { $0 } == (reason == nil ? ["/sys/error", "/sys/pong"] : ["/sys/pong"]))
        #expect(sender.messages.isEmpty)
    }

    /// Each message of a bundle is its own request: an error follows that message's reply url,
    /// or goes to the sender when the message carries none, whatever the message before it did.
    @Test func eachMessageOfABundleRoutesItsErrorsByItself() async throws {
        let fixture = try ServerFixture { $0.implicitSubscriptions = false }
        let sender = try fixture.peer()
        let asker = try fixture.peer()
        let messages: [OSCPacket] = [
            .message(OSCMessage("/knob/nope/get", [.string(asker.url)])),
            .message(OSCMessage("/knob/nope")),
            .message(OSCMessage("/knob/gone/info", [.string(asker.url)])),
        ]
        sender.send(packet: .bundle(OSCBundle(timeTag: .immediately, messages)))
        #expect(await asker.wait { $0.filter { $0.address == "/sys/error" }.count == 2 })
        #expect(await sender.wait { !$0.isEmpty })
        await sender.sync()
        #expect(
            asker.messages("/sys/error").map { $0.arguments.first } == [
                .string("/knob/nope/get"), .string("/knob/gone/info"),
            ])
        #expect(
            sender.messages("/sys/error").map { $0.arguments } == [[.string("/knob/nope"), .string("unknown address")]])
    }

    /// An error that is not about the request itself (the implicit subscription that a `get` would
    /// have made was refused) goes to the sender, while the answer goes to the reply url.
    @Test func aRefusedImplicitSubscriptionIsToldToTheSenderNotTheReplyURL() async throws {
        let fixture = try ServerFixture { $0.maxPeers = 1 }
        let subscriber = try fixture.peer()
        await subscriber.subscribe()
        let sender = try fixture.peer()
        let asker = try fixture.peer()
        sender.send("/knob/gain/get", [.string(asker.url)])
        #expect(await asker.next("/knob/gain") != nil)
        let error = await sender.next("/sys/error")
        #expect(error?.arguments.first == .string("/sys/subscribe"))
        #expect(asker.messages("/sys/error").isEmpty)
        #expect(fixture.statistic("subscriberCap") == 1)
    }

    @Test func dualStackServerAnswersIPv4PeersAndTheirURLs() async throws {
        let fixture = try ServerFixture {
            $0.bindHost = "::"
            $0.implicitSubscriptions = false
        }
        let peer = try fixture.peer()
        #expect(await peer.request("/sys/ping", reply: "/sys/pong") != nil)
        peer.send("/sys/subscribe", [.string(peer.url), .string("/knob/pan")])
        #expect(await peer.wait { $0.last?.arguments == [.int32(0)] })
        #expect(fixture.statistic("sendFailures") == 0)
    }

    @Test func defaultNameIsHostAndPort() throws {
        let fixture = try ServerFixture()
        #expect(fixture.server.name == "127.0.0.1:\(fixture.port)")
    }
}
