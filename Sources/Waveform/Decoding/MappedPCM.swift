import CSndFile

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The data chunk of a 16-bit little-endian WAV file, read through memory maps of the page cache
/// rather than copied by `read` into a buffer.
///
/// libsndfile reads such a file with a plain copy (its 16-bit samples are already the host's), so
/// mapping it gives the very same samples without the copy. The file is mapped one window at a
/// time and each window unmapped after use, so resident memory stays bounded. It is used only when
/// the chunk walk here and libsndfile agree on the frame count; otherwise decoding goes through
/// `sf_readf_short`.
struct MappedPCM {
    /// Bytes per window: a whole number of frames is taken from this.
    static let windowBytes = 1 << 20

    let descriptor: Int32
    let dataOffset: Int
    let frames: Int
    let channels: Int

    /// Opens `path` for mapping if it is a 16-bit PCM WAV that libsndfile reads as `frames` frames.
    init?(path: String, format: Int32, channels: Int, frames: Int) {
        #if _endian(little)
            let major = Int(format) & Int(SF_FORMAT_TYPEMASK)
            guard major == Int(SF_FORMAT_WAV) || major == Int(SF_FORMAT_WAVEX),
                Int(format) & Int(SF_FORMAT_SUBMASK) == Int(SF_FORMAT_PCM_16),
                [Int(SF_ENDIAN_FILE), Int(SF_ENDIAN_LITTLE)].contains(Int(format) & Int(SF_FORMAT_ENDMASK)), frames > 0
            else { return nil }
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { return nil }
            guard let offset = Self.dataOffset(descriptor), Self.size(descriptor) >= offset + frames * channels * 2
            else {
                closeDescriptor(descriptor)
                return nil
            }
            self.descriptor = descriptor
            self.dataOffset = offset
            self.frames = frames
            self.channels = channels
        #else
            return nil
        #endif
    }

    static func size(_ descriptor: Int32) -> Int {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    /// The offset of the `data` chunk's samples, found by walking the RIFF chunks.
    static func dataOffset(_ descriptor: Int32) -> Int? {
        var header = [UInt8](repeating: 0, count: 12)
        guard pread(descriptor, &header, 12, 0) == 12, header[0..<4].elementsEqual("RIFF".utf8),
            header[8..<12].elementsEqual("WAVE".utf8)
        else { return nil }
        var offset = 12
        // A WAV file has a handful of chunks; a bound keeps a hostile one from looping long.
        for _ in 0..<1024 {
            var chunk = [UInt8](repeating: 0, count: 8)
            guard pread(descriptor, &chunk, 8, off_t(offset)) == 8 else { return nil }
            let size = Int(chunk[4]) | Int(chunk[5]) << 8 | Int(chunk[6]) << 16 | Int(chunk[7]) << 24
            if chunk[0..<4].elementsEqual("data".utf8) { return offset + 8 }
            offset += 8 + size + (size & 1)
        }
        return nil
    }

    /// Calls `body` with each window of whole frames, in order, until it returns `false`.
    ///
    /// - Returns: `false` if a window could not be mapped (the file shrank, for instance) before
    ///   `body` saw it; the frames seen so far are then all there is.
    func forEachWindow(_ body: (UnsafeBufferPointer<Int16>) -> Bool) -> Bool {
        let frameBytes = channels * 2
        let windowFrames = max(1, Self.windowBytes / frameBytes)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var frame = 0
        while frame < frames {
            let count = min(windowFrames, frames - frame)
            let start = dataOffset + frame * frameBytes
            let aligned = start - start % page
            let length = start - aligned + count * frameBytes
            // Mapping past the end of a file that shrank would fault on access, so look first.
            guard Self.size(descriptor) >= start + count * frameBytes else { return false }
            #if os(Linux)
                let flags = MAP_PRIVATE | MAP_POPULATE
            #else
                let flags = MAP_PRIVATE
            #endif
            guard let map = mmap(nil, length, PROT_READ, flags, descriptor, off_t(aligned)),
                map != UnsafeMutableRawPointer(bitPattern: -1)
            else { return false }
            defer { munmap(map, length) }
            let samples = UnsafeRawPointer(map).advanced(by: start - aligned).assumingMemoryBound(to: Int16.self)
            if !body(UnsafeBufferPointer(start: samples, count: count * channels)) { return true }
            frame += count
        }
        return true
    }

    func close() {
        closeDescriptor(descriptor)
    }
}

private func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
        _ = Glibc.close(descriptor)
    #elseif canImport(Darwin)
        _ = Darwin.close(descriptor)
    #endif
}
