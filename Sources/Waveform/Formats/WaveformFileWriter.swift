#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes audiowaveform's `.dat` or `.json` file from min/max pairs as an analysis produces them,
/// in bounded memory, byte for byte what ``WaveformData/datBytes(version:)`` and
/// ``WaveformData/jsonText()`` write.
///
/// Both headers hold the length, which is known only at the end. A `.dat` header has a fixed
/// size, so a placeholder goes first and is overwritten in place when the writer finishes. A
/// `.json` header writes the length in decimal, so its size is not known in advance: the values
/// go to a spool file (created and unlinked at once, so that nothing is left behind), and
/// ``finish()`` writes the header, copies the spool after it and closes the text.
///
/// A path to a regular file, or to none yet, is written through a temporary file in the same
/// directory, renamed over the destination by ``finish()``: a destination that existed is left
/// untouched until the new file is whole, and a failure leaves no partial file behind. Any other
/// destination (a device, a pipe) and a file descriptor are written in one go by ``finish()``
/// from a spool in the temporary directory (`TMPDIR`, else `/tmp`); a failure there may leave part
/// of the file in the pipe.
///
/// ```swift
/// let writer = try WaveformFileWriter(path: "song.dat", format: .dat(version: nil))
/// let analysis = try AudioAnalysis(contentsOf: "song.flac", pairs: .stream(writer))
/// try writer.finish()
/// ```
///
/// Memory: two 64 KB buffers whatever the length. A failed write is kept and thrown by
/// ``finish()``, which then removes what was written; ``failure`` tells it earlier, so that a
/// caller can stop decoding.
public final class WaveformFileWriter: WaveformPairSink {
    /// The destination, as given.
    public let path: String
    /// The file written.
    public let format: WaveformFileFormat
    /// The first failure, if any: from then on pairs are dropped and ``finish()`` throws it.
    public private(set) var failure: WaveformWriteError?

    /// Where the file is assembled: the temporary file, the destination or the caller's descriptor.
    var output: Int32
    /// Whether the writer closes `output`.
    let ownsOutput: Bool
    /// The temporary file renamed over `path` at the end, if any: a caller that must remove it
    /// when a signal ends the process (``cancel()`` cannot run then) reads it here.
    public internal(set) var temporaryPath: String?
    /// Where values go until the end: `output` itself for a `.dat` file written through a
    /// temporary file, else an unlinked file of its own.
    var spool: Int32
    var header: WaveformDataHeader?
    var datVersion = 1
    /// Pairs per channel received.
    var length = 0
    /// Encoded values not yet written to the spool.
    var buffer: [UInt8] = []
    var finished = false

    static let bufferSize = 65_536

    /// Prepares to write the file at `path`, creating what it needs at once so that a destination
    /// that cannot be written fails before any decoding.
    ///
    /// - Throws: ``WaveformWriteError`` naming `path`.
    public init(path: String, format: WaveformFileFormat) throws(WaveformWriteError) {
        self.path = path
        self.format = format
        switch try WaveformDestination(path: path) {
        case .inPlace:
            output = try Self.openFile(path, flags: O_WRONLY | O_CLOEXEC, reportedAs: path)
            ownsOutput = true
            do {
                spool = try Self.makeSpool(in: Self.temporaryDirectory, reportedAs: path)
            } catch {
                close(output)
                throw error
            }
        case .replaced(let directory, let name, let mode):
            let temporary = try Self.makeTemporary(prefix: directory + "." + name, reportedAs: path)
            output = temporary.descriptor
            temporaryPath = temporary.path
            ownsOutput = true
            // The new file keeps the permissions of the one it replaces.
            if let mode { fchmod(output, mode) }
            if case .dat = format {
                spool = output
            } else {
                do {
                    spool = try Self.makeSpool(in: directory.isEmpty ? "./" : directory, reportedAs: path)
                } catch {
                    close(output)
                    unlink(temporary.path)
                    throw error
                }
            }
        }
        buffer.reserveCapacity(Self.bufferSize + 64)
    }

    /// Prepares to write the file to an open descriptor (standard output, for one), all of it
    /// when ``finish()`` is called; the descriptor is not closed.
    ///
    /// - Parameters:
    ///   - fileDescriptor: where the file goes, at its current offset.
    ///   - name: what errors call it, such as `<stdout>`.
    ///   - format: the file written.
    /// - Throws: ``WaveformWriteError`` when the spool cannot be made.
    public init(fileDescriptor: Int32, name: String, format: WaveformFileFormat) throws(WaveformWriteError) {
        path = name
        self.format = format
        output = fileDescriptor
        ownsOutput = false
        spool = try Self.makeSpool(in: Self.temporaryDirectory, reportedAs: name)
        buffer.reserveCapacity(Self.bufferSize + 64)
    }

    deinit {
        if !finished { cancel() }
    }

    /// Takes the header; a `.dat` file gets a placeholder of its size until the length is known.
    public func begin(_ header: WaveformDataHeader) {
        precondition(self.header == nil, "a writer takes one stream of pairs")
        self.header = header
        if case .dat(let version) = format {
            datVersion = WaveformEncoding.datVersion(requested: version, channels: header.channels)
            buffer.append(contentsOf: repeatElement(0, count: WaveformEncoding.datHeaderSize(version: datVersion)))
        }
    }

    /// Encodes the pairs of the next indices, writing them out whenever 64 KB are waiting.
    public func receive(_ values: UnsafeBufferPointer<Int16>, firstIndex: Int) {
        guard let header else { preconditionFailure("pairs before the header") }
        precondition(firstIndex == length, "pairs out of order: index \(firstIndex) after \(length)")
        guard failure == nil else { return }
        switch format {
        case .dat: WaveformEncoding.appendDat(values, bits: header.bits, to: &buffer)
        case .json: WaveformEncoding.appendJSON(values, continuing: length > 0, to: &buffer)
        }
        length += values.count / (2 * header.channels)
        if buffer.count >= Self.bufferSize {
            do throws(WaveformWriteError) {
                try flush()
            } catch {
                failure = error
            }
        }
    }

    /// Completes the file: writes the header with the length, assembles the parts and, for a
    /// path, renames the temporary file over the destination.
    ///
    /// - Throws: the first ``WaveformWriteError``, after removing the temporary file; the
    ///   destination is then as it was.
    /// - Precondition: ``begin(_:)`` was called (an analyzer streaming to the writer was made).
    public func finish() throws(WaveformWriteError) {
        guard !finished else { return }
        guard let header else { preconditionFailure("finish before the header") }
        do throws(WaveformWriteError) {
            if let failure { throw failure }
            try flush()
            switch format {
            case .dat:
                var head: [UInt8] = []
                WaveformEncoding.appendDatHeader(header, length: length, version: datVersion, to: &head)
                try writeAll(head, to: spool, at: 0)
                if spool != output { try copySpool() }
            case .json:
                WaveformEncoding.appendJSONHead(header, length: length, to: &buffer)
                try flush(to: output)
                try copySpool()
                WaveformEncoding.appendJSONTail(to: &buffer)
                try flush(to: output)
            }
            if spool != output { close(spool) }
            spool = -1
            if let temporaryPath {
                if close(output) != 0 { throw WaveformWriteError(path: path, call: "close", code: errno) }
                output = -1
                if rename(temporaryPath, path) != 0 {
                    throw WaveformWriteError(path: path, call: "rename", code: errno)
                }
                self.temporaryPath = nil
            } else if ownsOutput {
                let closed = close(output)
                output = -1
                if closed != 0 { throw WaveformWriteError(path: path, call: "close", code: errno) }
            }
            finished = true
        } catch {
            failure = error
            cancel()
            throw error
        }
    }

    /// Gives up: closes what the writer opened and removes the temporary file, leaving the
    /// destination as it was.
    public func cancel() {
        if spool >= 0 && spool != output { close(spool) }
        if output >= 0 && ownsOutput { close(output) }
        spool = -1
        output = -1
        if let temporaryPath { unlink(temporaryPath) }
        temporaryPath = nil
        finished = true
    }
}
