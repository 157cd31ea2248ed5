import OSCQuery
import Parameters
import Testing

@Suite struct OSCQueryPathChangesTests {
    private func parameter(
        _ identifier: String, _ address: ParameterAddress, unit: ParameterUnit = .generic, max: Float = 1
    )
        -> ParameterNodeSpec
    {
        ParameterTree.createParameter(
            withIdentifier: identifier, name: identifier.uppercased(), address: address, min: 0, max: max, unit: unit,
            flags: [.readable, .writable])
    }

    private func group(_ identifier: String, _ children: [ParameterNodeSpec]) -> ParameterNodeSpec {
        ParameterTree.createGroup(withIdentifier: identifier, name: identifier, children: children)
    }

    private func space(_ specs: [ParameterNodeSpec], root: String = "") throws -> OSCQueryNamespace {
        OSCQueryNamespace(tree: try ParameterTree(children: specs), rootPrefix: root)
    }

    @Test func theSameTreeHasNoChanges() throws {
        let old = OSCQueryNamespace(tree: ParameterTree.makeDefault())
        let new = OSCQueryNamespace(tree: ParameterTree.makeDefault())
        let changes = OSCQueryPathChanges(from: old, to: new)
        #expect(changes.isEmpty)
        #expect(changes.notifications().isEmpty)
    }

    @Test func addedAndRemovedPathsIncludeContainersInOrder() throws {
        let old = try space([
            group("a", [parameter("x", 1), parameter("y", 2)]), group("gone", [group("deep", [parameter("zz", 3)])]),
        ])
        let new = try space([group("a", [parameter("x", 1), parameter("w", 4)]), group("new", [parameter("n", 5)])])
        let changes = OSCQueryPathChanges(from: old, to: new)
        #expect(changes.added == ["/a/w", "/new", "/new/n"])
        #expect(changes.removed == ["/gone/deep/zz", "/gone/deep", "/gone", "/a/y"])
        #expect(changes.changed.isEmpty)
        #expect(
            changes.notifications() == [
                .pathRemoved("/gone"), .pathRemoved("/a/y"), .pathAdded("/a/w"), .pathAdded("/new"),
            ])
    }

    @Test func aNodeThatChangesKindIsRemovedAndAdded() throws {
        let old = try space([parameter("m", 1)])
        let new = try space([group("m", [parameter("inner", 1)])])
        let changes = OSCQueryPathChanges(from: old, to: new)
        #expect(changes.removed == ["/m"])
        #expect(changes.added == ["/m", "/m/inner"])
        #expect(changes.notifications() == [.pathRemoved("/m"), .pathAdded("/m")])
    }

    @Test func aMethodWhoseAttributesChangedMakesOnePathChanged() throws {
        let old = try space([parameter("p", 1), parameter("q", 2)])
        let new = try space([parameter("p", 1, unit: .decibels), parameter("q", 2), parameter("r", 3)])
        let changes = OSCQueryPathChanges(from: old, to: new)
        #expect(changes.changed == ["/p"])
        #expect(changes.added == ["/r"])
        #expect(changes.notifications() == [.pathChanged("/")])
    }

    @Test func valuesAreNotChanges() throws {
        let tree = ParameterTree.makeDefault()
        let old = OSCQueryNamespace(tree: tree)
        let other = ParameterTree.makeDefault()
        other.parameter(forOSCAddress: "/knob/gain")?.setValue(-30)
        #expect(OSCQueryPathChanges(from: old, to: OSCQueryNamespace(tree: other)).isEmpty)
    }

    @Test func manyChangesBecomeOnePathChanged() throws {
        let old = try space([])
        let new = try space((0..<10).map { parameter("p\($0)", ParameterAddress($0)) })
        let changes = OSCQueryPathChanges(from: old, to: new)
        #expect(changes.notifications(limit: 10).count == 10)
        #expect(changes.notifications(limit: 9) == [.pathChanged("/")])
    }

    @Test func theRootPrefixIsInThePaths() throws {
        let old = try space([parameter("a", 1)], root: "/inst1")
        let new = try space([parameter("b", 1)], root: "/inst1")
        let changes = OSCQueryPathChanges(from: old, to: new)
        #expect(changes.added == ["/inst1/b"])
        #expect(changes.removed == ["/inst1/a"])
    }

    @Test func notificationsAreTheProposalsShapes() throws {
        let tree = ParameterTree.makeDefault()
        tree.parameter(forOSCAddress: "/knob/pan")?.setValue(25)
        let space = OSCQueryNamespace(tree: tree)
        #expect(space.text(of: .pathRemoved("/old")) == #"{"COMMAND":"PATH_REMOVED","DATA":"/old"}"#)
        #expect(space.text(of: .pathChanged("/")) == #"{"COMMAND":"PATH_CHANGED","DATA":"/"}"#)
        let added = try OSCQueryJSONParser().parse(space.text(of: .pathAdded("/knob/pan")))
        #expect(added["COMMAND"] == .string("PATH_ADDED"))
        #expect(added["DATA"]?["FULL_PATH"] == .string("/knob/pan"))
        #expect(added["DATA"]?["VALUE"] == .array([.double(0.75)]))
        #expect(space.text(of: .pathAdded("/elsewhere")) == #"{"COMMAND":"PATH_ADDED","DATA":"/elsewhere"}"#)
    }
}
