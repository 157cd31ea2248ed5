import Dispatch
import Locking

/// Runs asynchronous work from a command's synchronous `run()` and waits for its result.
///
/// The caller is the main thread, not one of the concurrency pool's, so blocking it blocks
/// nothing that the work needs: the work's own tasks and sockets run on the pool and on their
/// event loops.
enum MainThreadWait {
    /// Starts `work` in a task and returns what it returned or threw.
    static func result<Success: Sendable, Failure: Error>(
        of work: @escaping @Sendable () async throws(Failure) -> Success
    ) -> Result<Success, Failure> {
        let outcome = Locked<Result<Success, Failure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<Success, Failure>
            do throws(Failure) {
                result = .success(try await work())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0 }!
    }
}
