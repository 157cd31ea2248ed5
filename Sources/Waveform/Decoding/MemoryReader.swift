import CSndFile

/// Bytes in memory as a libsndfile virtual file: the reader behind decoding a buffer (and the
/// fuzzer that decodes hostile bytes).
final class MemoryReader {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The callbacks; `user_data` is an unretained `MemoryReader`.
    static let callbacks = SF_VIRTUAL_IO(
        get_filelen: { user in
            sf_count_t(reader(user).bytes.count)
        },
        seek: { offset, whence, user in
            let reader = reader(user)
            let base: Int
            switch whence {
            case SEEK_CUR: base = reader.position
            case SEEK_END: base = reader.bytes.count
            default: base = 0
            }
            let target = base.addingReportingOverflow(Int(offset))
            // libsndfile seeks past the end while probing; reads there simply find nothing.
            guard !target.overflow, target.partialValue >= 0 else { return -1 }
            reader.position = target.partialValue
            return sf_count_t(reader.position)
        },
        read: { destination, count, user in
            let reader = reader(user)
            guard let destination, count > 0, reader.position < reader.bytes.count else { return 0 }
            let length = min(Int(count), reader.bytes.count - reader.position)
            destination.copyMemory(from: reader.bytes.baseAddress! + reader.position, byteCount: length)
            reader.position += length
            return sf_count_t(length)
        },
        write: { _, _, _ in 0 },
        tell: { user in
            sf_count_t(reader(user).position)
        }
    )

    private static func reader(_ user: UnsafeMutableRawPointer?) -> MemoryReader {
        Unmanaged<MemoryReader>.fromOpaque(user!).takeUnretainedValue()
    }
}
