/// Bytes received from a stream and not yet decoded into frames.
///
/// The reader appends bytes at the end (`write(_:)`, or ``writeWithUnsafeMutableBytes(minimumWritableBytes:_:)``
/// to let a `recv` call write straight into the storage), and a frame decoder consumes them from the
/// front. Consumed space is reclaimed by moving the unread bytes to the front when that is cheap,
/// so the storage stays about as large as the largest frame plus one read.
///
/// Frames come out as `ArraySlice`s of the storage: no bytes are copied to hand a frame over.
/// Keeping a frame alive while writing to the buffer makes the next write copy the storage, so
/// consume each frame before reading more.
public struct OSCFramingBuffer: Sendable {
    @usableFromInline var storage: [UInt8]
    @usableFromInline var readerIndex: Int
    @usableFromInline var writerIndex: Int

    /// Creates an empty buffer.
    /// - Parameter capacity: the number of bytes to reserve.
    public init(capacity: Int = 4096) {
        storage = [UInt8](repeating: 0, count: Swift.max(capacity, 16))
        readerIndex = 0
        writerIndex = 0
    }

    /// The number of bytes written and not yet consumed.
    public var readableBytes: Int { writerIndex - readerIndex }

    /// Appends bytes.
    /// - Parameter bytes: the bytes to append.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        writeWithUnsafeMutableBytes(minimumWritableBytes: bytes.count) { target in
            target.copyMemory(from: bytes)
            return bytes.count
        }
    }

    /// Appends bytes.
    /// - Parameter bytes: the bytes to append.
    public mutating func write(_ bytes: some Sequence<UInt8>) {
        let array = Array(bytes)
        array.withUnsafeBytes { write($0) }
    }

    /// Lets `body` write at the end of the buffer, in place.
    ///
    /// - Parameters:
    ///   - minimumWritableBytes: the space `body` is given at least.
    ///   - body: writes into the space and returns the number of bytes written (0 if none).
    /// - Returns: what `body` returns.
    @discardableResult
    public mutating func writeWithUnsafeMutableBytes(
        minimumWritableBytes: Int, _ body: (UnsafeMutableRawBufferPointer) -> Int
    ) -> Int {
        reserveWritable(minimumWritableBytes)
        let start = writerIndex
        let end = storage.count
        let written = storage.withUnsafeMutableBytes { all in
            body(UnsafeMutableRawBufferPointer(rebasing: all[start..<end]))
        }
        precondition(written >= 0 && written <= end - start, "wrote outside the writable space")
        writerIndex += written
        return written
    }

    /// Makes room for `count` more bytes after the writer index.
    @usableFromInline
    mutating func reserveWritable(_ count: Int) {
        if readerIndex == writerIndex {
            readerIndex = 0
            writerIndex = 0
        }
        if storage.count - writerIndex >= count { return }
        let unread = writerIndex - readerIndex
        // Moving the unread bytes down is cheap when few are left or when that alone makes room;
        // otherwise grow, so that a long frame arriving in pieces costs amortised linear time.
        if readerIndex > 0 && (unread <= readerIndex || storage.count - unread >= count) {
            compact()
            if storage.count - writerIndex >= count { return }
        }
        // Grow into a new array and move the unread bytes to its front in the same pass. The new
        // storage is filled with memset and memcpy, never element by element.
        var newCount = Swift.max(storage.count, 16)
        while newCount - unread < count { newCount *= 2 }
        let from = readerIndex
        let old = storage
        storage = [UInt8](unsafeUninitializedCapacity: newCount) { target, initialized in
            guard let base = target.baseAddress else { return }
            old.withUnsafeBufferPointer { source in
                if unread > 0, let sourceBase = source.baseAddress {
                    base.initialize(from: sourceBase + from, count: unread)
                }
            }
            (base + unread).initialize(repeating: 0, count: newCount - unread)
            initialized = newCount
        }
        readerIndex = 0
        writerIndex = unread
    }

    @usableFromInline
    mutating func compact() {
        let unread = writerIndex - readerIndex
        if unread > 0 {
            let from = readerIndex
            storage.withUnsafeMutableBytes { all in
                guard let base = all.baseAddress else { return }
                (base).copyMemory(from: base + from, byteCount: unread)
            }
        }
        readerIndex = 0
        writerIndex = unread
    }

    /// Calls `body` with the unread bytes, without consuming them.
    /// - Parameter body: reads the bytes.
    /// - Returns: what `body` returns.
    public func withUnsafeReadableBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[readerIndex..<writerIndex])) }
    }

    /// Consumes and returns up to `count` unread bytes.
    /// - Parameter count: how many bytes to take at most.
    /// - Returns: the bytes, a slice of the storage.
    public mutating func readBytes(upTo count: Int) -> ArraySlice<UInt8> {
        let n = Swift.min(count, readableBytes)
        let slice = storage[readerIndex..<(readerIndex + n)]
        readerIndex += n
        return slice
    }

    /// The bytes of storage the buffer holds, unread or not.
    public var capacity: Int { storage.count }

    /// Gives back the storage of a large frame once it is consumed: when no byte is unread and
    /// the storage is larger than `capacity`, it shrinks to `capacity` bytes.
    ///
    /// Only call it between frames: a decoder that keeps a position in the buffer has none then.
    /// - Parameter capacity: the storage to keep.
    public mutating func releaseStorage(keeping capacity: Int) {
        guard readerIndex == writerIndex, storage.count > capacity else { return }
        storage = [UInt8](repeating: 0, count: Swift.max(capacity, 16))
        readerIndex = 0
        writerIndex = 0
    }

    /// Drops all unread bytes.
    public mutating func clear() {
        readerIndex = 0
        writerIndex = 0
    }
}
