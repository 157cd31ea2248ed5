import Synchronization

/// Counts the messages that wait for their bundle's time tag, so that a flood of bundles timed
/// far in the future cannot grow the dump's memory without bound: past the limit, messages are
/// printed at once, as with `--no-delay`.
final class PendingMessages: Sendable {
    let limit: Int
    private let count = Atomic<Int>(0)

    init(limit: Int = 100_000) {
        self.limit = limit
    }

    /// Takes a place for one message; `false` when none is left.
    func reserve() -> Bool {
        while true {
            let current = count.load(ordering: .relaxed)
            guard current < limit else { return false }
            if count.compareExchange(expected: current, desired: current + 1, ordering: .relaxed).exchanged {
                return true
            }
        }
    }

    /// Gives back the places of messages that have been printed.
    func release(_ messages: Int) {
        count.subtract(messages, ordering: .relaxed)
    }
}
