import Synchronization

/// Identifies an observer: returned when it is added, passed as the originator of changes it
/// causes (so that it does not hear them back), and used to remove it.
public struct ParameterObserverToken: Sendable, Hashable {
    /// A process-wide unique number; 0 is never handed out.
    public let rawValue: UInt64

    /// Wraps a raw value, for callers that need an originator identity without an observer.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    private static let counter = Atomic<UInt64>(0)

    /// Makes a token no other call has returned, for an originator that does not observe.
    public static func unique() -> ParameterObserverToken {
        ParameterObserverToken(rawValue: counter.add(1, ordering: .relaxed).newValue)
    }
}
