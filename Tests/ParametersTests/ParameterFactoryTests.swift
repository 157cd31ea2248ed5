import Testing

@testable import Parameters

@Suite struct ParameterFactoryTests {
    @Test func auStyleFactoriesBuildATree() throws {
        let voice: [ParameterNodeSpec] = [
            ParameterTree.createParameter(
                withIdentifier: "level", name: "Level", address: 1, min: 0, max: 1, unit: .linearGain,
                flags: [.readable, .writable], dependentParameters: [2]),
            ParameterTree.createParameter(
                withIdentifier: "shape", name: "Shape", address: 2, min: 0, max: 1, unit: .indexed,
                valueStrings: ["Sine", "Saw"]),
        ]
        let one = try #require(
            ParameterTree.createGroup(fromTemplate: voice, identifier: "voice1", name: "Voice 1", addressOffset: 100))
        let two = try #require(
            ParameterTree.createGroup(fromTemplate: voice, identifier: "voice2", name: "Voice 2", addressOffset: 200))
        let tree = try ParameterTree.createTree(withChildren: [one, two])
        #expect(tree.parameter(withAddress: 101)?.keyPath == "voice1.level")
        #expect(tree.parameter(withAddress: 202)?.keyPath == "voice2.shape")
        #expect(tree.parameter(withAddress: 201)?.dependentParameters == [202])
        #expect(tree.parameter(withAddress: 101)?.value == 0)
        #expect(tree.parameter(withAddress: 102)?.flags == [])
    }

    @Test func templateOffsetOverflowIsRefused() {
        let template = [
            ParameterTree.createParameter(withIdentifier: "a", name: "A", address: 2, min: 0, max: 1, unit: .generic)
        ]
        #expect(
            ParameterTree.createGroup(fromTemplate: template, identifier: "g", name: "G", addressOffset: .max) == nil)
    }
}
