import Synchronization
import UncheckedState

/// An immutable snapshot of a tree's observers and hot-path hooks.
///
/// Adding or removing an observer, or setting a hook, builds a new table; a change takes the
/// current table under the lock (one retain, no allocation) and reads it after unlocking. Because
/// everything here is a `let`, delivery borrows the entries without retaining each closure.
final class ObserverTable: Sendable {
    /// One observer's callback, and the flag that removal clears so that a delivery already past
    /// the lock skips it.
    final class Observer: Sendable {
        let callback: @Sendable (ParameterChange) -> Void
        let active = Atomic<Bool>(true)

        init(_ callback: @escaping @Sendable (ParameterChange) -> Void) {
            self.callback = callback
        }
    }

    /// A trivial value, so that walking the entries retains nothing: the table's ``owners`` keep
    /// every observer alive for as long as the table lives.
    struct Entry: @unchecked Sendable {
        let token: ParameterObserverToken
        /// The dense parameter indexes the observer covers.
        let lowerBound: Int
        let upperBound: Int
        let observer: UncheckedReference<Observer>
    }

    /// Observers of a single parameter, per dense index.
    let direct: [[Entry]]
    /// Observers of groups and of the tree, checked by range.
    let broad: [Entry]
    /// Strong references to every observer of ``direct`` and ``broad``.
    let owners: [Observer]
    /// The resolved implementor value observer per dense index.
    let valueObservers: [ImplementorValueObserver?]
    /// The resolved implementor value provider per dense index.
    let valueProviders: [ImplementorValueProvider?]

    init(
        direct: [[Entry]], broad: [Entry], owners: [Observer], valueObservers: [ImplementorValueObserver?],
        valueProviders: [ImplementorValueProvider?]
    ) {
        self.direct = direct
        self.broad = broad
        self.owners = owners
        self.valueObservers = valueObservers
        self.valueProviders = valueProviders
    }

    convenience init(parameterCount: Int) {
        self.init(
            direct: Array(repeating: [], count: parameterCount), broad: [], owners: [],
            valueObservers: Array(repeating: nil, count: parameterCount),
            valueProviders: Array(repeating: nil, count: parameterCount))
    }

    var count: Int {
        broad.count + direct.reduce(0) { $0 + $1.count }
    }

    func adding(_ entry: Entry, single: Bool) -> ObserverTable {
        var direct = direct
        var broad = broad
        if single { direct[entry.lowerBound].append(entry) } else { broad.append(entry) }
        return ObserverTable(
            direct: direct, broad: broad, owners: owners + [entry.observer.object],
            valueObservers: valueObservers, valueProviders: valueProviders)
    }

    /// The table without the token's entry, and that entry; `nil` if the token is not here.
    func removing(_ token: ParameterObserverToken) -> (ObserverTable, Entry)? {
        if let position = broad.firstIndex(where: { $0.token == token }) {
            var broad = broad
            let entry = broad.remove(at: position)
            return (
                ObserverTable(
                    direct: direct, broad: broad, owners: owners(without: entry), valueObservers: valueObservers,
                    valueProviders: valueProviders),
                entry
            )
        }
        for index in direct.indices {
            guard let position = direct[index].firstIndex(where: { $0.token == token }) else { continue }
            var direct = direct
            let entry = direct[index].remove(at: position)
            return (
                ObserverTable(
                    direct: direct, broad: broad, owners: owners(without: entry), valueObservers: valueObservers,
                    valueProviders: valueProviders),
                entry
            )
        }
        return nil
    }

    func withHooks(valueObservers: [ImplementorValueObserver?], valueProviders: [ImplementorValueProvider?])
        -> ObserverTable
    {
        ObserverTable(
            direct: direct, broad: broad, owners: owners, valueObservers: valueObservers, valueProviders: valueProviders
        )
    }

    private func owners(without entry: Entry) -> [Observer] {
        owners.filter { !entry.observer.refers(to: $0) }
    }

    /// Calls the observers of the parameter at `index`, except the originator's.
    @inline(__always)
    func deliver(_ change: ParameterChange, index: Int, originator: ParameterObserverToken?) {
        // The entries are trivial and the observers are owned by this table, which the caller
        // holds: borrowing them unretained saves two atomic operations per delivery.
        direct[index].withUnsafeBufferPointer { entries in
            for entry in entries where entry.token != originator {
                entry.observer.withObject { observer in
                    if observer.active.load(ordering: .acquiring) { observer.callback(change) }
                }
            }
        }
        broad.withUnsafeBufferPointer { entries in
            for entry in entries
            where entry.lowerBound <= index && index < entry.upperBound && entry.token != originator {
                entry.observer.withObject { observer in
                    if observer.active.load(ordering: .acquiring) { observer.callback(change) }
                }
            }
        }
    }
}
