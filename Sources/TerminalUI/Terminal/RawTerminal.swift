#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal on standard input and output in raw mode, with the surface's modes on, restored
/// on every way out: ``restore()``, normal exit (`atexit`), and the fatal signals (SIGSEGV,
/// SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP), whose handler restores with async-signal-safe calls
/// (`write`, `tcsetattr`) and then lets the signal kill the process as before.
///
/// SIGINT, SIGTERM and SIGHUP are left to the owner, which must call ``restore()`` before it
/// exits (the CLI stops its server first). There is one terminal per process.
public enum RawTerminal {
    /// Whether standard input and standard output are both terminals.
    public static var isInteractive: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    /// The terminal's size in cells, or `nil` when it cannot be read.
    public static func size() -> (width: Int, height: Int)? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Switches to raw mode and the surface's modes.
    ///
    /// - Throws: ``RawTerminalError`` when standard input is not a terminal.
    public static func enter() throws(RawTerminalError) {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { throw .notATerminal(errno: errno) }
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        saved.pointee = original
        hasSaved.pointee = 1
        installHandlers()
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { throw .notATerminal(errno: errno) }
        write(TerminalModes.enter)
    }

    /// Restores the terminal: modes off and the saved line settings back. Safe to call twice.
    public static func restore() {
        restoreNow()
    }

    /// Writes `text` to standard output, whole.
    public static func write(_ text: String) {
        write(Array(text.utf8))
    }

    /// Writes `bytes` to standard output, whole (retrying on EINTR and short writes).
    public static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return
                }
                offset += written
            }
        }
    }

    // MARK: Restoring from anywhere

    /// The settings before raw mode, and the bytes that leave the modes, in memory that a signal
    /// handler may read without allocating.
    nonisolated(unsafe) private static let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    nonisolated(unsafe) private static let hasSaved: UnsafeMutablePointer<sig_atomic_t> = {
        let pointer = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 1)
        pointer.pointee = 0
        return pointer
    }()
    nonisolated(unsafe) private static let leaveBytes: (pointer: UnsafeMutablePointer<UInt8>, count: Int) = {
        let bytes = Array(TerminalModes.leave.utf8)
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        pointer.initialize(from: bytes, count: bytes.count)
        return (pointer, bytes.count)
    }()
    nonisolated(unsafe) private static var handlersInstalled = false

    private static func restoreNow() {
        guard hasSaved.pointee == 1 else { return }
        hasSaved.pointee = 0
        _ = systemWrite(STDOUT_FILENO, leaveBytes.pointer, leaveBytes.count)
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, saved)
    }

    private static func installHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        _ = leaveBytes
        atexit { RawTerminal.restoreNow() }
        for number in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] {
            var action = sigaction()
            let handler: @convention(c) (Int32) -> Void = { number in
                RawTerminal.restoreNow()
                // Back to the default, and again: the process dies of the signal as it would have.
                signal(number, SIG_DFL)
                raise(number)
            }
            #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = handler
            #else
                action.__sigaction_u.__sa_handler = handler
            #endif
            action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }
}

#if canImport(Glibc)
    private let systemWrite = Glibc.write
#else
    private let systemWrite = Darwin.write
#endif

/// Why the terminal cannot be used.
public enum RawTerminalError: Error, Equatable, CustomStringConvertible {
    /// Standard input is not a terminal (`tcgetattr` failed with this errno).
    case notATerminal(errno: Int32)

    /// A sentence for a user.
    public var description: String {
        switch self {
        case .notATerminal: "standard input is not a terminal"
        }
    }
}
