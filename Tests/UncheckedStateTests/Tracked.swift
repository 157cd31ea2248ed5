/// Counts how many of its ``Tracked`` instances were freed.
final class FreedCounter {
    var freed = 0
}

/// An object that tells its counter when it is freed, so that a test sees whether a container
/// deinitialised what it held.
final class Tracked {
    let counter: FreedCounter
    let number: Int

    init(_ counter: FreedCounter, number: Int = 0) {
        self.counter = counter
        self.number = number
    }

    deinit {
        counter.freed += 1
    }
}

/// A value that cannot be copied: passed as `borrowing`, it keeps the access it came from open for
/// the length of the call, which the overlap checks need.
struct Token: ~Copyable {
    var number: Int
}

/// Calls `body` while `value` is borrowed.
func whileReading(_ value: borrowing Token, _ body: () -> Void) {
    body()
}

/// Calls `body` while `value` is being changed.
func whileChanging(_ value: inout Token, _ body: () -> Void) {
    body()
    value.number += 1
}
