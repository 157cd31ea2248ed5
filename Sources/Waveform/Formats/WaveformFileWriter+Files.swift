#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The system calls of the writer: each retries EINTR and throws the errno of a failure with the
// name of the call and the destination it was for.
extension WaveformFileWriter {
    /// `TMPDIR`, else `/tmp`, with a trailing slash.
    static var temporaryDirectory: String {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        let chosen = directory.isEmpty ? "/tmp" : directory
        return chosen.hasSuffix("/") ? chosen : chosen + "/"
    }

    static func openFile(
        _ path: String, flags: Int32, mode: mode_t = 0, reportedAs name: String
    ) throws(WaveformWriteError) -> Int32 {
        while true {
            let descriptor = open(path, flags, mode)
            if descriptor >= 0 { return descriptor }
            if errno != EINTR { throw WaveformWriteError(path: name, call: "open", code: errno) }
        }
    }

    /// A new file `prefix.<random>.tmp`, readable and writable, with the permissions a new file
    /// gets (0666 less the umask).
    static func makeTemporary(prefix: String, reportedAs name: String) throws(WaveformWriteError) -> (
        descriptor: Int32, path: String
    ) {
        while true {
            let candidate = prefix + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".tmp"
            do throws(WaveformWriteError) {
                let descriptor = try openFile(
                    candidate, flags: O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o666, reportedAs: name)
                return (descriptor, candidate)
            } catch {
                // Another file took the name: draw another.
                if error.code != EEXIST { throw error }
            }
        }
    }

    /// A spool in `directory` (ending in `/`), unlinked at once so that it goes with its descriptor.
    static func makeSpool(in directory: String, reportedAs name: String) throws(WaveformWriteError) -> Int32 {
        let spool = try makeTemporary(prefix: directory + ".knoblink-waveform", reportedAs: name)
        unlink(spool.path)
        return spool.descriptor
    }

    /// Writes the buffer to the spool (or `descriptor`) and empties it.
    func flush(to descriptor: Int32? = nil) throws(WaveformWriteError) {
        guard !buffer.isEmpty else { return }
        try writeAll(buffer, to: descriptor ?? spool, at: nil)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes every byte at `offset`, or at the descriptor's offset when it is `nil`.
    func writeAll(_ bytes: [UInt8], to descriptor: Int32, at offset: Int?) throws(WaveformWriteError) {
        try Self.writeAll(bytes, to: descriptor, at: offset, reportedAs: path)
    }

    /// Writes every byte at `offset`, or at the descriptor's offset when it is `nil`; a failure
    /// names `name`.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, at offset: Int?, reportedAs name: String)
        throws(WaveformWriteError)
    {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                let start = raw.baseAddress! + done
                let count = raw.count - done
                return offset.map { pwrite(descriptor, start, count, off_t($0 + done)) }
                    ?? write(descriptor, start, count)
            }
            if written > 0 {
                done += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                throw WaveformWriteError(
                    path: name, call: offset == nil ? "write" : "pwrite", code: written < 0 ? errno : EIO)
            }
        }
    }

    /// Appends the whole spool to the output, through the (empty) buffer.
    func copySpool() throws(WaveformWriteError) {
        if lseek(spool, 0, SEEK_SET) < 0 { throw WaveformWriteError(path: path, call: "lseek", code: errno) }
        buffer.removeAll(keepingCapacity: true)
        while true {
            let chunk = Self.bufferSize
            buffer.append(contentsOf: repeatElement(0, count: chunk))
            let count = buffer.withUnsafeMutableBytes { read(spool, $0.baseAddress!, chunk) }
            if count < 0 && errno == EINTR {
                buffer.removeAll(keepingCapacity: true)
                continue
            }
            if count < 0 { throw WaveformWriteError(path: path, call: "read", code: errno) }
            buffer.removeLast(chunk - count)
            if count == 0 { return }
            try flush(to: output)
        }
    }
}
