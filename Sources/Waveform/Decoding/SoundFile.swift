import CSndFile

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open libsndfile handle for reading, closed when the value goes away.
final class SoundFile {
    /// libsndfile's functions (``SndFileLibrary``).
    let api: KBSndFileAPI
    let handle: OpaquePointer
    let info: AudioFileInfo
    /// How samples are read: see ``SampleKind``.
    let sampleKind: SampleKind
    let format: Int32
    /// The frames the header's data chunk declares when libsndfile found the file shorter and
    /// quietly used the actual length (WAV, AIFF, CAF): the sign of a truncated file.
    let declaredFrames: Int?
    /// The bytes behind a handle opened from memory, kept alive as long as the handle.
    let reader: MemoryReader?
    /// The descriptor behind a handle opened by ``init(regularFile:)``, closed after the handle.
    let descriptor: Int32
    /// Where libsndfile left `descriptor` once it had read the header: the first byte of the
    /// audio data in the formats whose samples follow the header (``PCMWindows`` checks it).
    let dataOffset: Int

    convenience init(path: String) throws(AudioDecodingError) {
        // Foundation stays out of the decoder: it would cost a process more resident memory than
        // the whole decode does.
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            throw AudioDecodingError(
                path: path,
                reason: code == ENOENT || code == ENOTDIR
                    ? .notFound : .notReadable(detail: String(cString: strerror(code))))
        }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            throw AudioDecodingError(path: path, reason: .notReadable(detail: "it is a directory"))
        }
        if status.st_mode & S_IFMT == S_IFREG {
            // Through a descriptor of its own, which the analysis can map (``PCMWindows``).
            try self.init(regularFile: path)
            return
        }
        let api = try SndFileLibrary.functions(decoding: path)
        var fileInfo = SF_INFO()
        guard let handle = api.open(path, Int32(SFM_READ), &fileInfo) else {
            throw AudioDecodingError(path: path, reason: Self.openFailure(api, code: api.error(nil)))
        }
        try self.init(api: api, handle: handle, fileInfo: fileInfo, path: path, reader: nil)
    }

    /// Opens `path` only if it is a regular file, without ever waiting: a FIFO, a socket or a
    /// device is refused at once. `open(2)` with `O_NONBLOCK` returns at once even for a FIFO
    /// with no writer (a plain open would wait for one), and `fstat(2)` of the descriptor checks
    /// the very file that libsndfile then reads, so swapping the path for a FIFO after a check
    /// cannot make it wait either.
    convenience init(regularFile path: String) throws(AudioDecodingError) {
        let api = try SndFileLibrary.functions(decoding: path)
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw AudioDecodingError(
                path: path,
                reason: code == ENOENT || code == ENOTDIR
                    ? .notFound : .notReadable(detail: String(cString: strerror(code))))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            let kind = status.st_mode & S_IFMT == S_IFDIR ? "it is a directory" : "it is not a regular file"
            throw AudioDecodingError(path: path, reason: .notReadable(detail: kind))
        }
        guard status.st_size > 0 else {
            close(descriptor)
            throw AudioDecodingError(path: path, reason: .empty)
        }
        // Reads of a regular file never wait anyway; the flag goes so that libsndfile sees a plain file.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        var fileInfo = SF_INFO()
        guard let handle = api.open_fd(descriptor, Int32(SFM_READ), &fileInfo, 0) else {
            close(descriptor)
            throw AudioDecodingError(path: path, reason: Self.openFailure(api, code: api.error(nil)))
        }
        let dataOffset = Int(lseek(descriptor, 0, SEEK_CUR))
        try self.init(
            api: api, handle: handle, fileInfo: fileInfo, path: path, reader: nil, descriptor: descriptor,
            dataOffset: dataOffset)
    }

    /// Opens bytes in memory, which must stay valid while the value lives; `name` stands for the
    /// path in errors and in ``info``.
    convenience init(bytes: UnsafeRawBufferPointer, name: String) throws(AudioDecodingError) {
        guard !bytes.isEmpty else { throw AudioDecodingError(path: name, reason: .empty) }
        let api = try SndFileLibrary.functions(decoding: name)
        let reader = MemoryReader(bytes: bytes)
        var callbacks = MemoryReader.callbacks
        var fileInfo = SF_INFO()
        guard
            let handle = api.open_virtual(
                &callbacks, Int32(SFM_READ), &fileInfo, Unmanaged.passUnretained(reader).toOpaque())
        else {
            throw AudioDecodingError(path: name, reason: Self.openFailure(api, code: api.error(nil)))
        }
        try self.init(api: api, handle: handle, fileInfo: fileInfo, path: name, reader: reader)
    }

    private init(
        api: KBSndFileAPI, handle: OpaquePointer, fileInfo: SF_INFO, path: String, reader: MemoryReader?,
        descriptor: Int32 = -1, dataOffset: Int = -1
    ) throws(AudioDecodingError) {
        self.api = api
        self.reader = reader
        self.descriptor = descriptor
        self.dataOffset = dataOffset
        guard fileInfo.channels > 0, fileInfo.samplerate > 0 else {
            _ = api.close(handle)
            if descriptor >= 0 { close(descriptor) }
            throw AudioDecodingError(
                path: path,
                reason: .malformed(detail: "\(fileInfo.channels) channels at \(fileInfo.samplerate) Hz"))
        }
        self.handle = handle
        format = fileInfo.format
        sampleKind = Self.sampleKind(format: fileInfo.format)
        let frames = fileInfo.frames
        info = AudioFileInfo(
            path: path, sampleRate: Int(fileInfo.samplerate), channels: Int(fileInfo.channels),
            frameCountHint: frames >= 0 && frames < Int64(Int32.max) * 1024 ? Int(frames) : nil,
            formatName: Self.formatName(api, fileInfo.format))
        declaredFrames = Self.declaredFrames(
            api, handle: handle, format: fileInfo.format, channels: Int(fileInfo.channels))
    }

    deinit {
        _ = api.close(handle)
        if descriptor >= 0 { close(descriptor) }
    }

    static func sampleKind(format: Int32) -> SampleKind {
        switch Int(format) & Int(SF_FORMAT_SUBMASK) {
        case Int(SF_FORMAT_FLOAT), Int(SF_FORMAT_DOUBLE): .storedFloat
        case Int(SF_FORMAT_VORBIS), Int(SF_FORMAT_OPUS), Int(SF_FORMAT_MPEG_LAYER_I), Int(SF_FORMAT_MPEG_LAYER_II),
            Int(SF_FORMAT_MPEG_LAYER_III):
            .decodedFloat
        default: .integer
        }
    }

    /// Whether the header's frame count is exact, so that fewer frames mean a truncated file.
    var frameCountIsExact: Bool {
        let major = Int(format) & Int(SF_FORMAT_TYPEMASK)
        return major != Int(SF_FORMAT_MPEG) && major != Int(SF_FORMAT_OGG)
    }

    /// libsndfile's error for this handle, if any.
    var error: (code: Int32, message: String)? {
        let code = api.error(handle)
        return code == 0 ? nil : (code, api.message(handle))
    }

    /// Reads libsndfile's log of the header for a data chunk "(should be …)" shorter than declared.
    static func declaredFrames(_ api: KBSndFileAPI, handle: OpaquePointer, format: Int32, channels: Int) -> Int? {
        let bytesPerSample: Int
        switch Int(format) & Int(SF_FORMAT_SUBMASK) {
        case Int(SF_FORMAT_PCM_S8), Int(SF_FORMAT_PCM_U8), Int(SF_FORMAT_ULAW), Int(SF_FORMAT_ALAW): bytesPerSample = 1
        case Int(SF_FORMAT_PCM_16): bytesPerSample = 2
        case Int(SF_FORMAT_PCM_24): bytesPerSample = 3
        case Int(SF_FORMAT_PCM_32), Int(SF_FORMAT_FLOAT): bytesPerSample = 4
        case Int(SF_FORMAT_DOUBLE): bytesPerSample = 8
        default: return nil
        }
        var log = [UInt8](repeating: 0, count: 8192)
        let length = Int(api.command(handle, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count)))
        guard length > 0 else { return nil }
        // Bytes, not String: String's Unicode machinery would cost the process megabytes of
        // resident tables for a scan of ASCII lines.
        let marker = Array("(should be".utf8)
        var start = 0
        while start < length {
            var end = start
            while end < length && log[end] != 0x0A { end += 1 }
            var first = start
            // AIFF's chunks are indented under FORM.
            while first < end && log[first] == 0x20 { first += 1 }
            let line = log[first..<end]
            start = end + 1
            let chunk: Int
            if line.starts(with: "data : ".utf8) {
                chunk = 0
            } else if line.starts(with: "SSND : ".utf8) {
                chunk = 8  // an AIFF SSND chunk starts with 8 bytes of offset and block size
            } else {
                continue
            }
            guard line.indices.contains(where: { line[$0...].starts(with: marker) }) else { continue }
            var declared = 0
            var index = line.startIndex + 7
            while index < line.endIndex, (0x30...0x39).contains(line[index]), declared < 1 << 40 {
                declared = declared * 10 + Int(line[index] - 0x30)
                index += 1
            }
            return max(0, declared - chunk) / (bytesPerSample * channels)
        }
        return nil
    }

    static func openFailure(_ api: KBSndFileAPI, code: Int32) -> AudioDecodingError.Reason {
        let message = api.message(code: code)
        switch Int(code) {
        case Int(SF_ERR_UNRECOGNISED_FORMAT): return .notAudio(detail: message)
        case Int(SF_ERR_SYSTEM): return .notReadable(detail: message)
        case Int(SF_ERR_UNSUPPORTED_ENCODING): return .unsupported(detail: message)
        default: return .malformed(detail: message)
        }
    }

    static func formatName(_ api: KBSndFileAPI, _ format: Int32) -> String {
        let major = Int(format) & Int(SF_FORMAT_TYPEMASK)
        let subtype = Int(format) & Int(SF_FORMAT_SUBMASK)
        switch major {
        case Int(SF_FORMAT_WAV), Int(SF_FORMAT_WAVEX): return "WAV"
        case Int(SF_FORMAT_AIFF): return "AIFF"
        case Int(SF_FORMAT_CAF): return "CAF"
        case Int(SF_FORMAT_FLAC): return "FLAC"
        case Int(SF_FORMAT_W64): return "W64"
        case Int(SF_FORMAT_RF64): return "RF64"
        case Int(SF_FORMAT_AU): return "AU"
        case Int(SF_FORMAT_OGG):
            if subtype == Int(SF_FORMAT_VORBIS) { return "Ogg Vorbis" }
            if subtype == Int(SF_FORMAT_OPUS) { return "Opus" }
            return "Ogg"
        case Int(SF_FORMAT_MPEG):
            if subtype == Int(SF_FORMAT_MPEG_LAYER_III) { return "MP3" }
            if subtype == Int(SF_FORMAT_MPEG_LAYER_II) { return "MP2" }
            return "MPEG"
        default:
            var formatInfo = SF_FORMAT_INFO()
            formatInfo.format = Int32(major)
            guard
                api.command(nil, Int32(SFC_GET_FORMAT_INFO), &formatInfo, Int32(MemoryLayout<SF_FORMAT_INFO>.size))
                    == 0,
                let name = formatInfo.name
            else { return "audio format 0x\(String(major, radix: 16))" }
            return String(cString: name)
        }
    }
}
