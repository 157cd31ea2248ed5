import Testing
import UncheckedState

@Suite struct UncheckedBoxTests {
    /// A `let` box in a class, changed through a method as the hot paths do.
    final class Holder {
        let counts = UncheckedBox((hits: 0, misses: 0))

        func hit() { counts.value.hits += 1 }
    }

    @Test func keepsItsValueAndItsChanges() {
        let box = UncheckedBox([1, 2, 3])
        #expect(box.value == [1, 2, 3])
        box.value.append(4)
        box.value[0] = 10
        #expect(box.value == [10, 2, 3, 4])
        box.value = []
        #expect(box.value.isEmpty)
    }

    @Test func isChangedThroughALetOfAClass() {
        let holder = Holder()
        for _ in 0..<5 { holder.hit() }
        holder.counts.value.misses = 2
        #expect(holder.counts.value.hits == 5)
        #expect(holder.counts.value.misses == 2)
    }

    @Test func holdsAValueThatCannotBeCopied() {
        let box = UncheckedBox(Token(number: 1))
        box.value.number += 41
        #expect(box.value.number == 42)
        whileChanging(&box.value) {}
        #expect(box.value.number == 43)
    }

    @Test func freesItsValueWithItself() {
        let counter = FreedCounter()
        do {
            let box = UncheckedBox(Tracked(counter, number: 1))
            #expect(box.value.number == 1)
            // Replacing the value frees the one it held.
            box.value = Tracked(counter, number: 2)
            #expect(counter.freed == 1)
        }
        #expect(counter.freed == 2)
    }

    @Test func readsMayOverlapReads() {
        let box = UncheckedBox(Token(number: 7))
        var seen = 0
        whileReading(box.value) { seen = box.value.number }
        #expect(seen == 7)
    }

    #if DEBUG
        @Test func readDuringAChangeTraps() async {
            await #expect(processExitsWith: .failure) {
                let box = UncheckedBox(Token(number: 0))
                whileChanging(&box.value) { _ = box.value.number }
            }
        }

        @Test func changeDuringAReadTraps() async {
            await #expect(processExitsWith: .failure) {
                let box = UncheckedBox(Token(number: 0))
                whileReading(box.value) { box.value.number = 1 }
            }
        }

        @Test func changeDuringAChangeTraps() async {
            await #expect(processExitsWith: .failure) {
                let box = UncheckedBox(Token(number: 0))
                whileChanging(&box.value) { box.value.number = 1 }
            }
        }
    #endif
}
