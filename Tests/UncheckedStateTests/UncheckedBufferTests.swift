import Testing
import UncheckedState

@Suite struct UncheckedBufferTests {
    @Test func keepsItsElements() {
        let buffer = UncheckedBuffer(count: 4, repeating: 1.5)
        #expect(buffer.count == 4)
        buffer[2] = 3
        buffer[0] += 1
        #expect((0..<4).map { buffer[$0] } == [2.5, 1.5, 3, 1.5])
        buffer.update(repeating: -1)
        #expect((0..<4).map { buffer[$0] } == [-1, -1, -1, -1])
    }

    @Test func copiesACollection() {
        let buffer = UncheckedBuffer((0..<5).map { $0 * $0 })
        #expect(buffer.count == 5)
        #expect((0..<5).map { buffer[$0] } == [0, 1, 4, 9, 16])
        let sum = buffer.withUnsafeMutableBufferPointer { $0.reduce(0, +) }
        #expect(sum == 30)
        buffer.withUnsafeMutableBytes { $0[0] = 0xFF }
        #expect(buffer[0] == 0xFF)
    }

    @Test func mayBeEmpty() {
        let buffer = UncheckedBuffer(count: 0, repeating: UInt8(0))
        #expect(buffer.count == 0)
        #expect(buffer.withUnsafeMutableBufferPointer { $0.count } == 0)
    }

    @Test func freesItsElementsWithItself() {
        let counter = FreedCounter()
        do {
            let buffer = UncheckedBuffer((0..<3).map { Tracked(counter, number: $0) })
            #expect(buffer[2].number == 2)
            // Replacing an element frees the one it held.
            buffer[1] = Tracked(counter, number: 10)
            #expect(counter.freed == 1)
            #expect(buffer[1].number == 10)
        }
        #expect(counter.freed == 4)
    }

    @Test func freesRepeatedElementsOncePerReference() {
        let counter = FreedCounter()
        do {
            let buffer = UncheckedBuffer(count: 8, repeating: Tracked(counter))
            #expect(buffer.count == 8)
            #expect(counter.freed == 0)
        }
        // Eight references to one object: it is freed once, when the last goes.
        #expect(counter.freed == 1)
    }

    #if DEBUG
        @Test func readPastTheEndTraps() async {
            await #expect(processExitsWith: .failure) {
                let buffer = UncheckedBuffer(count: 3, repeating: 0)
                _ = buffer[3]
            }
        }

        @Test func writeBeforeTheStartTraps() async {
            await #expect(processExitsWith: .failure) {
                let buffer = UncheckedBuffer(count: 3, repeating: 0)
                buffer[-1] = 1
            }
        }

        @Test func indexIntoAnEmptyBufferTraps() async {
            await #expect(processExitsWith: .failure) {
                let buffer = UncheckedBuffer(count: 0, repeating: 0)
                _ = buffer[0]
            }
        }
    #endif
}
