import Controls
import Foundation
import Locking
import Parameters

/// Parameter trees of the original package's tests, and a recorder of the writes that reach them.
enum ParameterFixtures {
    static let english = Locale(identifier: "en_US")

    /// The knob tests' tree: "Release" at address 1, 0–100, generic unit.
    static func releaseTree() throws -> (ParameterTree, Parameter) {
        let tree = try ParameterTree(children: [
            .parameter(
                ParameterSpec(identifier: "RELEASE", displayName: "Release", address: 1, minValue: 0, maxValue: 100))
        ])
        return (tree, tree.parameter(withAddress: 1)!)
    }

    /// The toggle tests' tree: "Retrigger" at address 10, boolean.
    static func retriggerTree() throws -> (ParameterTree, Parameter) {
        let tree = try ParameterTree(children: [
            .parameter(
                ParameterSpec(
                    identifier: "RETRIGGER", displayName: "Retrigger", address: 10, minValue: 0, maxValue: 1,
                    unit: .boolean))
        ])
        return (tree, tree.parameter(withAddress: 10)!)
    }

    /// The duality tests' tree: a boolean at 1 and a float 0–100 at 2.
    static func dualityTree() throws -> ParameterTree {
        try ParameterTree(children: [
            .parameter(
                ParameterSpec(
                    identifier: "bool", displayName: "Bool", address: 1, minValue: 0, maxValue: 1, unit: .boolean)),
            .parameter(
                ParameterSpec(identifier: "float", displayName: "Float", address: 2, minValue: 0, maxValue: 100)),
        ])
    }
}

extension ParameterWrite {
    /// A value write without an originator token, as a control that does not observe makes it.
    static func value(_ parameter: Parameter, _ value: ParameterValue) -> ParameterWrite {
        ParameterWrite(parameter: parameter, value: value, eventType: .value)
    }
}

/// Records every change of a tree that anyone makes (the tests of external changes use it; the
/// controls' own writes are asserted as received `parameterWritten` actions).
final class WriteRecorder: Sendable {
    struct Write: Equatable, Sendable {
        var address: ParameterAddress
        var value: ParameterValue
        var eventType: AutomationEventType
    }

    private let writes = Locked<[Write]>([])
    private let tree: ParameterTree
    private let token: Locked<ParameterObserverToken?> = Locked(nil)

    init(_ tree: ParameterTree) {
        self.tree = tree
        let writes = self.writes
        let observer = tree.token { change in
            writes.withLock {
                $0.append(Write(address: change.address, value: change.value, eventType: change.eventType))
            }
        }
        token.withLock { $0 = observer }
    }

    deinit {
        if let token = token.withLock({ $0 }) {
            tree.removeParameterObserver(token)
        }
    }

    var all: [Write] { writes.withLock { $0 } }
    var valueWrites: [Write] { writes.withLock { $0 }.filter { $0.eventType == .value } }
    var count: Int { valueWrites.count }
}
