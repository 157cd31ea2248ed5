import Dispatch
import Locking

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Removes `knoblink waveform`'s temporary files when SIGINT or SIGTERM ends it, says
/// `interrupted` and exits with status 130, as a shell reports a command that Ctrl-C ended.
///
/// Without it a signal ends the process at once and leaves `.k.dat.….tmp` next to the output:
/// no `defer` or `deinit` runs. The signals reach dispatch sources on a queue of their own, so
/// they are handled while the main thread decodes. A temporary file is created and renamed
/// under the lock that the handler takes, so the handler never misses a file that exists nor
/// removes one that has become the output.
final class TemporaryFileCleanup: Sendable {
    private let paths = Locked<[String]>([])

    /// Runs `body`, which makes something that may have created a temporary file and returns it
    /// with the file's path, under the lock; the file is removed if a signal comes before
    /// ``finishing(_:_:)``.
    func creating<T, E: Error>(_ body: () throws(E) -> (T, temporaryPath: String?)) throws(E) -> T {
        var made: T?
        try paths.withLock { (paths: inout [String]) throws(E) in
            let (value, path) = try body()
            if let path { paths.append(path) }
            made = value
        }
        guard let made else { preconditionFailure("withLock runs its body") }
        return made
    }

    /// Runs `body`, which renames or removes the temporary file at `path`, under the lock, and
    /// then forgets the file.
    func finishing<E: Error>(_ path: String?, _ body: () throws(E) -> Void) throws(E) {
        try paths.withLock { (paths: inout [String]) throws(E) in
            defer { paths.removeAll { $0 == path } }
            try body()
        }
    }

    /// Catches SIGINT and SIGTERM until the sources returned are released.
    func catchSignals() -> any DispatchSourceRead {
        SignalWatch.watch([SIGINT, SIGTERM], queue: DispatchQueue(label: "knoblink.waveform.signals")) {
            @Sendable [self] _ in interrupted()
        }
    }

    /// Removes every temporary file and ends the process with status 130. `_exit`, because
    /// the main thread is still decoding: `exit` would run teardown under its feet.
    ///
    /// The main thread holds the lock for an instant, except while it opens a FIFO that has
    /// no reader yet, which waits for one (and makes no temporary file): the handler waits
    /// for the lock a while, then ends the process without it rather than wait for ever.
    private func interrupted() -> Never {
        for _ in 0..<100 {
            _ = paths.withLockIfAvailable { paths in Self.remove(paths) }
            usleep(10_000)
        }
        Self.remove([])
    }

    private static func remove(_ paths: [String]) -> Never {
        for path in paths { unlink(path) }
        // A progress bar being drawn is on the line: the message goes below it.
        let text = (isatty(STDERR_FILENO) == 1 ? "\n" : "") + "Error: interrupted\n"
        KnobLinkTool.write(text, to: .standardError)
        _exit(130)
    }
}
