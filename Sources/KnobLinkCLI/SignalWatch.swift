import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Signals turned into work on a dispatch queue, with no moment at which one is lost.
///
/// The usual way, `signal(n, SIG_IGN)` and then a dispatch signal source, has such a moment:
/// libdispatch registers the source on its manager thread after `resume()` returns, and a
/// signal that comes before that is ignored, gone. A server stopped by its supervisor right
/// after its ready line then never stopped (`stopsCleanlyOnASignal` waited out its 5 s about once
/// in 30 runs). Here the handler is in place when ``watch(_:queue:_:)`` returns: it writes the
/// signal's number to a pipe (`write` is async-signal-safe), and a read source on the pipe runs
/// the work on the queue. A signal that comes before the source reads waits in the pipe. The
/// signals are unblocked on the calling thread (call it from the main thread), since a process
/// may start with them blocked.
enum SignalWatch {
    /// The write end of the pipe of each signal number, -1 for none; read by the handler.
    // Written before a handler is installed, read by handlers: the table itself never moves.
    nonisolated(unsafe) private static let pipes: UnsafeMutablePointer<Int32> = {
        let table = UnsafeMutablePointer<Int32>.allocate(capacity: 65)
        table.initialize(repeating: -1, count: 65)
        return table
    }()

    /// Runs `handler` on `queue` with the number of each of `signals` that arrives, from now
    /// until the returned source is cancelled or released (the handler stays installed).
    /// - Precondition: each signal is in 1…64 and not watched yet.
    static func watch(_ signals: [Int32], queue: DispatchQueue, _ handler: @escaping @Sendable (Int32) -> Void)
        -> any DispatchSourceRead
    {
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0, "pipe: \(errno)")
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        for number in signals {
            precondition((1...64).contains(number) && pipes[Int(number)] < 0, "signal \(number) is watched already")
            pipes[Int(number)] = writeEnd
            signal(number) { number in
                // Async-signal-safe only: a table read and a write of one byte (dropped if the pipe
                // is full: the reader has 64 KB of signals to run already).
                let saved = errno
                let end = SignalWatch.pipes[Int(number)]
                if end >= 0 {
                    var byte = UInt8(truncatingIfNeeded: number)
                    _ = write(end, &byte, 1)
                }
                errno = saved
            }
        }
        // A child inherits the signal mask of the thread that started it, and a test runner's or
        // a supervisor's thread may block these: blocked, they would wait in the kernel for ever.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for number in signals { sigaddset(&unblocked, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: queue)
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 64)
            while true {
                let count = bytes.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                for byte in bytes[0..<count] { handler(Int32(byte)) }
            }
        }
        source.resume()
        return source
    }
}
