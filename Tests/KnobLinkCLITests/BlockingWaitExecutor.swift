import Dispatch
import Foundation
import Locking
import Testing

/// Threads of the test process's own on which tests that block may wait for processes and
/// sockets, so that they never hold the Swift concurrency pool's threads.
///
/// The pool has one thread per core (two here). A synchronous test that polls a child process
/// or sleeps between datagrams keeps its pool thread for seconds; when `swift test` runs every
/// target at once, two such tests starve every async test of the process (`TestStore`'s
/// timeouts fired in ControlsTests). Jobs run in arrival order on `width` threads, as many as
/// the pool had, so that the end-to-end tests run no more of themselves at once than before.
final class BlockingWaitExecutor: TaskExecutor {
    static let shared = BlockingWaitExecutor(width: max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// The key of the mark each of the executor's threads leaves in its thread dictionary.
    private static let markKey = "BlockingWaitExecutor"

    /// Whether the calling code runs on one of the executor's threads.
    static var isCurrent: Bool { Thread.current.threadDictionary[markKey] != nil }

    /// Records an issue unless the caller runs on the executor: the helpers that start a child
    /// process call it, so that a suite without ``OffThePool`` fails instead of starving the pool.
    static func expectCurrent() {
        guard !isCurrent else { return }
        Issue.record("A test that runs a process waits for it: mark its suite `.offThePool` (OffThePool.swift)")
    }

    private let jobs = Locked<[UnownedJob]>([])
    /// Counts the jobs in `jobs`; a thread takes one for each job it runs.
    private let available = DispatchSemaphore(value: 0)

    private init(width: Int) {
        for _ in 0..<width {
            let thread = Thread { [self] in
                Thread.current.threadDictionary[Self.markKey] = true
                runJobs()
            }
            thread.name = "KnobLinkCLITests blocking waits"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        available.signal()
    }

    /// Runs jobs for as long as the test process lives: the executor is a process-wide constant.
    private func runJobs() {
        while true {
            available.wait()
            guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
