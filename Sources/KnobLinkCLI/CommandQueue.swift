import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command that runs until it is stopped (`serve`, `surface`, `dump`) runs its signals'
/// work and its callbacks, and how its main thread waits meanwhile.
///
/// Not the main queue and `dispatchMain()`: on Linux `dispatchMain()` ends the main thread with
/// `pthread_exit`, whose forced unwinding walks the thread's stack through the binary's unwind
/// tables. A server that never unwinds otherwise kept 0.3 MiB of those tables resident for it.
/// Here the main thread sleeps in `pause()` until the process exits; a signal wakes it only for
/// the handler, which passes the signal on to this queue (``SignalWatch``).
enum CommandQueue {
    /// A serial queue, as the main queue was.
    static let queue = DispatchQueue(label: "knoblink.command")

    /// Sleeps for ever on the calling thread (the main thread): the command ends in `exit`, from
    /// the work on ``queue``.
    static func parkMainThread() -> Never {
        while true { pause() }
    }
}
