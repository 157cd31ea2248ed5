import Testing

/// Runs every test of the suite it marks on ``BlockingWaitExecutor``'s threads instead of the
/// Swift concurrency pool's.
///
/// For suites whose tests wait synchronously (`RunningProcess.wait`, `Thread.sleep` between
/// datagrams): the test's task prefers the executor, so its synchronous body, and the parts of
/// an async body that do not hop to an actor, run there. Task-local values, and with them Swift
/// Testing's attribution of issues to the test, carry over because the task stays the same.
struct OffThePool: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(BlockingWaitExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OffThePool {
    /// The suite's tests wait for processes and sockets on threads of their own: ``OffThePool``.
    static var offThePool: Self { Self() }
}
