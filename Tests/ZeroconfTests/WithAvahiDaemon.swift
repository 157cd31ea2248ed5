import Testing

/// Runs a suite with the tests' Avahi daemon: started before the first test (by the suite's
/// condition, `AvahiDaemon.isAvailable()`), stopped after the last.
struct WithAvahiDaemon: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        do { try await function() } catch {
            await AvahiDaemon.stop()
            throw error
        }
        await AvahiDaemon.stop()
    }
}

extension Trait where Self == WithAvahiDaemon {
    /// The suite needs the tests' Avahi daemon: ``WithAvahiDaemon``.
    static var avahiDaemon: Self { Self() }
}
