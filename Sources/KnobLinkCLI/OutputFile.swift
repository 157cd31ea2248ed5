import Parameters

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A file descriptor written unbuffered: standard output, standard error, or a file opened for
/// writing. It replaces Foundation's `FileHandle`, which FoundationEssentials does not have.
final class OutputFile: Sendable {
    /// The descriptor written to.
    let descriptor: Int32
    private let owned: Bool

    static let standardOutput = OutputFile(descriptor: STDOUT_FILENO, owned: false)
    static let standardError = OutputFile(descriptor: STDERR_FILENO, owned: false)

    private init(descriptor: Int32, owned: Bool) {
        self.descriptor = descriptor
        self.owned = owned
    }

    /// Opens `path` for writing, creating it if it is missing (mode 0644): emptied first, or
    /// with `append`, written at its end. `nil` if it cannot be opened.
    convenience init?(forWritingAtPath path: String, append: Bool) {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC)
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { return nil }
        self.init(descriptor: descriptor, owned: true)
    }

    deinit {
        if owned { close(descriptor) }
    }

    /// Writes every byte, again after an interruption or a short write.
    /// - Throws: `POSIXError` when the system refuses (a full disk, a closed pipe).
    func write(contentsOf bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try SystemFile.writeAll($0, to: descriptor) }
    }
}
