import Testing
import UncheckedState

@Suite struct UncheckedReferenceTests {
    @Test func reachesTheObjectItWasMadeFor() {
        let counter = FreedCounter()
        let object = Tracked(counter, number: 5)
        let reference = UncheckedReference(object)
        #expect(reference.withObject { $0 === object })
        #expect(reference.withObject { $0.number } == 5)
        #expect(reference.object === object)
    }

    @Test func retainsNothing() {
        let counter = FreedCounter()
        var object = Tracked(counter)
        let references = (0..<4).map { _ in UncheckedReference(object) }
        #expect(isKnownUniquelyReferenced(&object))
        references[3].withObject { _ in }
        #expect(isKnownUniquelyReferenced(&object))
        #expect(references.allSatisfy { $0.refers(to: object) })
    }

    @Test func comparesByIdentity() {
        let counter = FreedCounter()
        let first = Tracked(counter, number: 1)
        let twin = Tracked(counter, number: 1)
        let reference = UncheckedReference(first)
        let copy = reference
        #expect(reference.refers(to: first))
        #expect(copy.refers(to: first))
        #expect(!reference.refers(to: twin))
        #expect(!reference.refers(to: nil))
    }

    @Test func passesOnWhatTheBodyThrows() {
        struct Refused: Error, Equatable { let number: Int }
        let object = Tracked(FreedCounter(), number: 9)
        let reference = UncheckedReference(object)
        #expect(throws: Refused(number: 9)) {
            try reference.withObject { object throws(Refused) in throw Refused(number: object.number) }
        }
    }

    #if DEBUG
        @Test func useAfterTheObjectWasFreedTraps() async {
            await #expect(processExitsWith: .failure) {
                var object: Tracked? = Tracked(FreedCounter())
                let reference = UncheckedReference(object!)
                object = nil
                reference.withObject { _ in }
            }
        }

        @Test func strongCopyAfterTheObjectWasFreedTraps() async {
            await #expect(processExitsWith: .failure) {
                var object: Tracked? = Tracked(FreedCounter())
                let reference = UncheckedReference(object!)
                object = nil
                _ = reference.object
            }
        }
    #endif
}
