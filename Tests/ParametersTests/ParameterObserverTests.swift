import Dispatch
import Locking
import Synchronization
import Testing

@testable import Parameters

/// Collects deliveries from any thread.
private final class Recorder: Sendable {
    let changes = Locked<[(String, ParameterValue, AutomationEventType)]>([])

    func record(_ change: ParameterChange) {
        changes.withLock { $0.append((change.parameter.keyPath, change.value, change.eventType)) }
    }

    var values: [ParameterValue] { changes.withLock { $0.map(\.1) } }
    var keyPaths: [String] { changes.withLock { $0.map(\.0) } }
    var count: Int { changes.withLock { $0.count } }
}

@Suite struct ParameterObserverTests {
    @Test func originatorIsNotTold() throws {
        let tree = ParameterTree.makeDefault()
        let gain = try #require(tree.parameter(forKeyPath: "knob.gain"))
        let mine = Recorder()
        let other = Recorder()
        let myToken = gain.token { mine.record($0) }
        _ = gain.token { other.record($0) }
        gain.setValue(-6, originator: myToken)
        gain.setValue(-3)
        #expect(mine.values == [-3])
        #expect(other.values == [-6, -3])
    }

    @Test func uniqueTokensServeAsOriginatorsWithoutObserving() throws {
        let tree = ParameterTree.makeDefault()
        let recorder = Recorder()
        _ = tree.token { recorder.record($0) }
        let peer = ParameterObserverToken.unique()
        #expect(peer != ParameterObserverToken.unique())
        let gain = try #require(tree.parameter(forKeyPath: "knob.gain"))
        gain.setValue(-9, originator: peer)
        #expect(recorder.changes.withLock { $0.count } == 1)
        let originators = Locked<[ParameterObserverToken?]>([])
        _ = gain.token { change in originators.withLock { $0.append(change.originator) } }
        gain.setValue(-8, originator: peer)
        #expect(originators.withLock { $0 } == [peer])
    }

    @Test func groupAndTreeObserversSeeDescendants() throws {
        let tree = ParameterTree.makeDefault()
        let all = Recorder()
        let amp = Recorder()
        _ = tree.token { all.record($0) }
        _ = try #require(tree.node(forKeyPath: "amp")?.group).token { amp.record($0) }
        tree.parameter(forKeyPath: "amp.attack")!.setValue(1)
        tree.parameter(forKeyPath: "mod.attack")!.setValue(2)
        tree.parameter(forKeyPath: "knob.gain")!.setValue(-1)
        #expect(all.keyPaths == ["amp.attack", "mod.attack", "knob.gain"])
        #expect(amp.keyPaths == ["amp.attack"])
    }

    @Test func unchangedValuesAreNotDeliveredButTouchAndReleaseAre() throws {
        let tree = ParameterTree.makeDefault()
        let recorder = Recorder()
        _ = tree.token { recorder.record($0) }
        let gain = try #require(tree.parameter(forKeyPath: "knob.gain"))
        gain.setValue(0)
        gain.setValue(0, eventType: .touch)
        gain.setValue(-2, eventType: .value)
        gain.setValue(-2, eventType: .release)
        #expect(recorder.changes.withLock { $0.map(\.2) } == [.touch, .value, .release])
    }

    @Test func removedObserversAreNotTold() throws {
        let tree = ParameterTree.makeDefault()
        let recorder = Recorder()
        let token = tree.token { recorder.record($0) }
        let gain = try #require(tree.parameter(forKeyPath: "knob.gain"))
        gain.setValue(1)
        gain.removeParameterObserver(token)
        gain.setValue(2)
        tree.removeParameterObserver(token)
        #expect(recorder.values == [1])
        #expect(tree.observerCount == 0)
    }

    @Test func callbacksMayAddAndRemoveObservers() throws {
        let tree = ParameterTree.makeDefault()
        let gain = try #require(tree.parameter(forKeyPath: "knob.gain"))
        let late = Recorder()
        let tokens = Locked<[ParameterObserverToken]>([])
        let selfRemoving = Locked<ParameterObserverToken?>(nil)
        let token = gain.token { change in
            // Adding and removing from inside a delivery must neither deadlock nor crash.
            let added = change.parameter.token { late.record($0) }
            tokens.withLock { $0.append(added) }
            if let mine = selfRemoving.withLock({ $0 }) { change.parameter.removeParameterObserver(mine) }
        }
        selfRemoving.withLock { $0 = token }
        gain.setValue(1)
        gain.setValue(2)
        #expect(late.values == [2])
        #expect(tree.observerCount == 1)
        for added in tokens.withLock({ $0 }) { tree.removeParameterObserver(added) }
        #expect(tree.observerCount == 0)
    }

    @Test func implementorHooks() throws {
        let tree = ParameterTree.makeDefault()
        let gain = try #require(tree.parameter(forKeyPath: "knob.gain"))
        let seen = Recorder()
        let token = tree.token { _ in }
        let implementorValues = Locked<[ParameterValue]>([])
        tree.implementorValueObserver = { _, value in implementorValues.withLock { $0.append(value) } }
        gain.setValue(-5, originator: token)
        #expect(implementorValues.withLock { $0 } == [-5])
        _ = seen

        gain.implementorValueObserver = { _, _ in }
        gain.setValue(-4)
        #expect(implementorValues.withLock { $0 } == [-5])
        tree.parameter(forKeyPath: "knob.pan")!.setValue(3)
        #expect(implementorValues.withLock { $0 } == [-5, 3])

        let group = try #require(tree.node(forKeyPath: "knob")?.group)
        group.implementorValueProvider = { _ in 100 }
        #expect(gain.value == 12)
        #expect(tree.parameter(forKeyPath: "knob.pan")!.value == 50)
        #expect(tree.parameter(forKeyPath: "amp.sustain")!.value == 80)
        group.implementorValueProvider = nil

        tree.implementorStringFromValueCallback = { parameter, value in "\(parameter.identifier)=\(value ?? -1)" }
        #expect(gain.string(fromValue: 2) == "gain=2.0")
        tree.implementorValueFromStringCallback = { _, text in text == "max" ? 12 : nil }
        #expect(try gain.value(fromString: "max") == 12)
        #expect(throws: ValueParsingError.refusedByImplementor("loud")) { try gain.value(fromString: "loud") }
    }

    @Test func hammeredFromSeveralThreads() throws {
        let tree = ParameterTree.makeDefault()
        let parameters = tree.allParameters
        let counted = Atomic<Int>(0)
        let tokens = (0..<4).map { _ in tree.token { _ in counted.add(1, ordering: .relaxed) } }
        let perThread = 2_000
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var extra: [ParameterObserverToken] = []
            for step in 0..<perThread {
                let parameter = parameters[(step + thread) % parameters.count]
                // Alternate between the ends so that every set is a change.
                let result = parameter.setValue(step % 2 == 0 ? parameter.maxValue : parameter.minValue)
                #expect(result != .refused)
                if step % 100 == 0 {
                    extra.append(parameter.token { _ in })
                } else if step % 100 == 50, let token = extra.popLast() {
                    tree.removeParameterObserver(token)
                }
                _ = parameter.value
            }
            for token in extra { tree.removeParameterObserver(token) }
        }
        #expect(tree.observerCount == tokens.count)
        #expect(counted.load(ordering: .relaxed) > 0)
        #expect(counted.load(ordering: .relaxed) <= 4 * perThread * tokens.count)
    }
}
