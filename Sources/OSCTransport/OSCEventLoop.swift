import Dispatch

/// A serial dispatch queue that owns sockets: their reads, their write queues and their timers.
///
/// Every handler of a server's sockets runs on this queue, so state that only the loop touches
/// needs no lock: TCP sockets are read by a `DispatchSource` on it, UDP sockets by a
/// `DispatchSource` or by a reader thread of their own that runs the handlers on the queue
/// (``OSCUDPOptions/Reader``). Work from elsewhere is handed over with ``execute(_:)``.
public final class OSCEventLoop: Sendable {
    /// The serial queue that runs every handler of this loop.
    public let queue: DispatchQueue
    private let key = DispatchSpecificKey<ObjectIdentifier>()

    /// Creates a loop with its own serial queue.
    /// - Parameters:
    ///   - label: the queue's label, shown by debuggers.
    ///   - qos: the queue's quality of service; network input is latency-sensitive by default.
    public init(label: String = "KnobLink.OSCEventLoop", qos: DispatchQoS = .userInteractive) {
        queue = DispatchQueue(label: label, qos: qos)
        queue.setSpecific(key: key, value: ObjectIdentifier(self))
    }

    /// Whether the caller is running on this loop's queue.
    public var inEventLoop: Bool { DispatchQueue.getSpecific(key: key) == ObjectIdentifier(self) }

    /// Runs `work` on the loop, later (never inline, even when called from the loop).
    /// - Parameter work: the work.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Runs `work` on the loop now if the caller is on it, otherwise later.
    /// - Parameter work: the work.
    public func executeSoon(_ work: @escaping @Sendable () -> Void) {
        if inEventLoop { work() } else { queue.async(execute: work) }
    }

    /// Runs `work` on the loop at `deadline`.
    /// - Parameters:
    ///   - deadline: when to run, on the monotonic clock.
    ///   - work: the work.
    /// - Returns: a handle that cancels the work if it has not started.
    @discardableResult
    public func schedule(at deadline: DispatchTime, _ work: @escaping @Sendable () -> Void) -> DispatchWorkItem {
        let item = DispatchWorkItem(block: work)
        queue.asyncAfter(deadline: deadline, execute: item)
        return item
    }

    /// Asserts (in debug builds) that the caller runs on the loop.
    func assertInLoop() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
