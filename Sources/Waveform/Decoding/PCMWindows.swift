import CFileWindow
import CSndFile

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The 16-bit little-endian samples of a WAV-like file, read in place from windows of a mapping
/// rather than copied out by `read(2)`.
///
/// libsndfile's `sf_readf_short` of such a file is the kernel copying the page cache into the
/// caller's buffer: two thirds of the analysis's time. Mapped, the analysis reads the page cache
/// itself. Windows of ``windowBytes`` are mapped one at a time, so that a long file adds no more
/// than one window to the resident size; a file that shrinks while it is read is caught by the
/// SIGBUS guard (`CFileWindow`) and reported as truncated, never a crash.
///
/// Only the formats whose samples libsndfile would hand over unchanged are read this way: 16-bit
/// PCM in a little-endian container (WAV, WAVE_FORMAT_EXTENSIBLE, W64, RF64) on a little-endian
/// machine. The caller reads the first chunk through libsndfile and ``matches(_:)`` compares it
/// with the mapped bytes at libsndfile's data offset, so any header the offset would be wrong for
/// goes on through libsndfile instead.
struct PCMWindows {
    /// Bytes a window maps: large enough that mapping costs little per byte, small enough to stay
    /// far below the 20 MB a whole analysis may use.
    static let windowBytes = 4 << 20

    let descriptor: Int32
    /// The first sample's byte in the file.
    let dataOffset: Int
    let channels: Int
    /// The frames libsndfile counts, all within the file.
    let frames: Int

    var frameBytes: Int { channels * 2 }

    /// The windows of `file`, or `nil` when its samples cannot be read in place.
    init?(_ file: SoundFile) {
        let major = Int(file.format) & Int(SF_FORMAT_TYPEMASK)
        let endian = Int(file.format) & Int(SF_FORMAT_ENDMASK)
        guard file.descriptor >= 0, file.dataOffset >= 0, file.dataOffset % 2 == 0,
            1.littleEndian == 1,
            Int(file.format) & Int(SF_FORMAT_SUBMASK) == Int(SF_FORMAT_PCM_16),
            [Int(SF_FORMAT_WAV), Int(SF_FORMAT_WAVEX), Int(SF_FORMAT_W64), Int(SF_FORMAT_RF64)].contains(major),
            endian == Int(SF_ENDIAN_FILE) || endian == Int(SF_ENDIAN_LITTLE),
            let frames = file.info.frameCountHint, frames > 0
        else { return nil }
        var status = stat()
        guard fstat(file.descriptor, &status) == 0,
            file.dataOffset + frames * file.info.channels * 2 <= Int(status.st_size)
        else { return nil }
        descriptor = file.descriptor
        dataOffset = file.dataOffset
        channels = file.info.channels
        self.frames = frames
    }

    /// Whether the first `samples.count / channels` frames of the file are `samples`, which
    /// libsndfile read.
    func matches(_ samples: UnsafeBufferPointer<Int16>) -> Bool {
        guard !samples.isEmpty else { return false }
        var window = kb_file_window()
        guard kb_file_window_map(descriptor, off_t(dataOffset), samples.count * 2, &window) == 0,
            let bytes = window.bytes
        else { return false }
        let same = memcmp(bytes, samples.baseAddress.unsafelyUnwrapped, samples.count * 2) == 0
        // A page lost here reads as zeros, so the comparison has already failed or holds.
        return kb_file_window_unmap(&window) == 0 && same
    }

    /// How ``read(from:_:)`` ended.
    enum End: Equatable {
        /// The frames up to this one were read: all of them, or fewer when a window could not be
        /// mapped (the caller goes on through libsndfile from there).
        case read(upTo: Int)
        /// The file shrank while it was read: this frame's sample was gone (read as zeros).
        case lost(at: Int)
    }

    /// Calls `body` with the samples of the frames from `first` on, a window at a time, until
    /// they are all read; an error `body` throws ends the read.
    func read<E: Error>(from first: Int, _ body: (UnsafeBufferPointer<Int16>) throws(E) -> Void) throws(E) -> End {
        var frame = first
        while frame < frames {
            // The window ends at the next multiple of `windowBytes` in the file, on a whole frame.
            let start = dataOffset + frame * frameBytes
            let boundary = (start / Self.windowBytes + 1) * Self.windowBytes
            let count = min(frames - frame, max(1, (boundary - start) / frameBytes))
            var window = kb_file_window()
            guard kb_file_window_map(descriptor, off_t(start), count * frameBytes, &window) == 0,
                let bytes = window.bytes
            else { return .read(upTo: frame) }
            // The window is unmapped however `body` ends; its error comes after.
            let outcome = Result { () throws(E) in
                try body(UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: Int16.self), count: count * channels))
            }
            let lost = kb_file_window_unmap(&window)
            try outcome.get()
            if lost != 0 {
                // The frames before the lost page, or fewer: the zeros after the new end of the
                // file, up to that page, were never in it.
                let base = UInt(bitPattern: bytes)
                var lostFrame = frame + Int(lost > base ? lost - base : 0) / frameBytes
                var status = stat()
                if fstat(descriptor, &status) == 0 {
                    lostFrame = min(lostFrame, max(0, (Int(status.st_size) - dataOffset) / frameBytes))
                }
                return .lost(at: lostFrame)
            }
            frame += count
        }
        return .read(upTo: frame)
    }
}
