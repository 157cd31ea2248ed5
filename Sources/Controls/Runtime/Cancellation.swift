/// Something that stops a running piece of work when asked.
///
/// A subscription effect returns one; the store calls ``cancel()`` once, when the effect is
/// cancelled or the store goes away.
public struct Cancellation: Sendable {
    private let body: @Sendable () -> Void

    /// Wraps the closure that stops the work.
    public init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    /// A cancellation that does nothing.
    public static let none = Cancellation {}

    /// Stops the work.
    public func cancel() {
        body()
    }
}
