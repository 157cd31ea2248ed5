/// Checks that bytes form a valid OSC packet and finds the parts of each message.
///
/// All offsets are relative to `base`, the start of the buffer handed to the public decoder, so
/// that errors name positions the caller can find in its own bytes. Every message and bundle
/// starts at a multiple of 4 from `base` (a bundle's header, size fields and element sizes are all
/// multiples of 4), which lets strings be scanned and padded by whole words.
struct OSCPacketValidator {
    let base: UnsafeRawPointer
    let options: OSCDecodingOptions
    /// Where to record each valid message and its innermost bundle's time tag, in order, so that
    /// delivery after validation does not scan the messages again; `nil` to record nothing.
    let records: UnsafeMutablePointer<Record>?
    let recordCapacity: Int
    /// The number of messages seen; more than `recordCapacity` means the records are incomplete.
    var recordCount = 0

    /// A message found by validation, with the time tag of the bundle that holds it.
    struct Record {
        var layout: MessageLayout
        var timeTag: OSCTimeTag
    }

    init(
        base: UnsafeRawPointer, options: OSCDecodingOptions, records: UnsafeMutableBufferPointer<Record>? = nil
    ) {
        self.base = base
        self.options = options
        self.records = records?.baseAddress
        self.recordCapacity = records?.count ?? 0
    }

    /// Where the parts of one message sit, relative to `base`.
    struct MessageLayout {
        var start: Int
        var end: Int
        var addressLength: Int
        var tagsStart: Int
        var tagsLength: Int
        var argumentsStart: Int
        var argumentCount: Int
    }

    /// Validates the packet in `start ..< end` (top level: depth 0 means "not inside a bundle");
    /// `timeTag` is that of the bundle holding it.
    mutating func validatePacket(start: Int, end: Int, depth: Int, timeTag: OSCTimeTag) throws(OSCDecodingError) {
        let size = end - start
        if size == 0 {
            throw .emptyPacket(offset: start)
        }
        if size & 3 != 0 {
            throw .misaligned(size: size, offset: start)
        }
        if base.load(fromByteOffset: start, as: UInt8.self) == UInt8(ascii: "#") {
            try validateBundle(start: start, end: end, depth: depth + 1)
        } else {
            let layout = try validateMessage(start: start, end: end)
            if recordCount < recordCapacity, let records {
                records[recordCount] = Record(layout: layout, timeTag: timeTag)
            }
            recordCount += 1
        }
    }

    /// Validates a bundle at `depth` (1 for a top-level bundle).
    mutating func validateBundle(start: Int, end: Int, depth: Int) throws(OSCDecodingError) {
        let size = end - start
        if size >= 8 {
            if base.loadUnaligned(fromByteOffset: start, as: UInt64.self) != OSCWire.bundleHeader {
                throw .badBundleHeader(offset: start)
            }
        } else {
            let header: [UInt8] = Array("#bundle\0".utf8)
            for index in 0..<size where base.load(fromByteOffset: start + index, as: UInt8.self) != header[index] {
                throw .badBundleHeader(offset: start)
            }
        }
        if size < 16 {
            throw .truncated(needed: 16, available: size, offset: start)
        }
        if depth > min(options.maximumBundleDepth, OSCDecodingOptions.depthCeiling) {
            throw .bundleNestingTooDeep(depth: depth, offset: start)
        }
        let timeTag = OSCTimeTag(rawValue: OSCWire.loadUInt64(base, start + 8))
        var offset = start + 16
        while offset < end {
            // `offset` and `end` are both 4-aligned here, so a size field always fits.
            let elementSize = Int(OSCWire.loadInt32(base, offset))
            let available = end - offset - 4
            if elementSize < 0 || elementSize > available {
                throw .elementSizeOutOfBounds(size: elementSize, available: available, offset: offset)
            }
            let elementStart = offset + 4
            try validatePacket(start: elementStart, end: elementStart + elementSize, depth: depth, timeTag: timeTag)
            offset = elementStart + elementSize
        }
    }

    /// Validates a message whose size is a non-zero multiple of 4 and returns its layout.
    @inline(__always)
    func validateMessage(start: Int, end: Int) throws(OSCDecodingError) -> MessageLayout {
        if options.requiresSlashAddress && base.load(fromByteOffset: start, as: UInt8.self) != UInt8(ascii: "/") {
            throw .invalidAddress(offset: start)
        }
        guard let addressEnd = OSCWire.findNUL(base, from: start, to: end) else {
            throw .unterminatedString(offset: start)
        }
        let tagsComma = (addressEnd + 4) & ~3
        if options.requiresZeroPadding {
            try checkPadding(from: addressEnd + 1, to: tagsComma)
        }
        var layout = MessageLayout(
            start: start, end: end, addressLength: addressEnd - start,
            tagsStart: tagsComma, tagsLength: 0, argumentsStart: tagsComma, argumentCount: 0)
        if tagsComma == end {
            if !options.allowsMissingTypeTags {
                throw .missingTypeTags(offset: tagsComma)
            }
            return layout
        }
        if base.load(fromByteOffset: tagsComma, as: UInt8.self) != UInt8(ascii: ",") {
            throw .typeTagsWithoutComma(offset: tagsComma)
        }
        guard let tagsEnd = OSCWire.findNUL(base, from: tagsComma, to: end) else {
            throw .unterminatedString(offset: tagsComma)
        }
        var data = (tagsEnd + 4) & ~3
        if options.requiresZeroPadding {
            try checkPadding(from: tagsEnd + 1, to: data)
        }
        layout.tagsStart = tagsComma + 1
        layout.tagsLength = tagsEnd - tagsComma - 1
        layout.argumentsStart = data

        var count = 0
        var depth = 0
        var outermostOpen = 0
        var tagOffset = tagsComma + 1
        while tagOffset < tagsEnd {
            let tag = base.load(fromByteOffset: tagOffset, as: UInt8.self)
            let fixed = OSCWire.fixedSize(of: tag)
            if depth == 0 && fixed != -4 {
                count &+= 1
            }
            if fixed >= 0 {
                if end - data < fixed {
                    throw .truncated(needed: fixed, available: end - data, offset: data)
                }
                data &+= fixed
            } else {
                switch fixed {
                case -1:
                    guard data < end else {
                        throw .truncated(needed: 4, available: 0, offset: data)
                    }
                    guard let nul = OSCWire.findNUL(base, from: data, to: end) else {
                        throw .unterminatedString(offset: data)
                    }
                    let next = (nul + 4) & ~3
                    if options.requiresZeroPadding {
                        try checkPadding(from: nul + 1, to: next)
                    }
                    data = next
                case -2:
                    guard end - data >= 4 else {
                        throw .truncated(needed: 4, available: end - data, offset: data)
                    }
                    let blobSize = Int(OSCWire.loadInt32(base, data))
                    let available = end - data - 4
                    if blobSize < 0 || blobSize > available {
                        throw .blobSizeOutOfBounds(size: blobSize, available: available, offset: data)
                    }
                    let next = data + 4 + OSCWire.paddedLength(blobSize)
                    if options.requiresZeroPadding {
                        try checkPadding(from: data + 4 + blobSize, to: next)
                    }
                    data = next
                case -3:
                    if depth == 0 {
                        outermostOpen = tagOffset
                    }
                    depth &+= 1
                    if depth > min(options.maximumArrayDepth, OSCDecodingOptions.depthCeiling) {
                        throw .arrayNestingTooDeep(depth: depth, offset: tagOffset)
                    }
                case -4:
                    if depth == 0 {
                        throw .unbalancedArrayEnd(offset: tagOffset)
                    }
                    depth &-= 1
                default:
                    throw .unknownTypeTag(tag, offset: tagOffset)
                }
            }
            tagOffset &+= 1
        }
        if depth != 0 {
            throw .unclosedArray(offset: outermostOpen)
        }
        if data != end && !options.allowsTrailingBytes {
            throw .trailingBytes(count: end - data, offset: data)
        }
        layout.argumentCount = count
        return layout
    }

    private func checkPadding(from start: Int, to end: Int) throws(OSCDecodingError) {
        if let offset = OSCWire.firstNonZero(base, from: start, to: end) {
            throw .nonZeroPadding(offset: offset)
        }
    }

    /// The layout of a message that has already been validated: only the string ends and the
    /// argument count are found again, nothing is checked.
    static func layoutOfValidMessage(_ base: UnsafeRawPointer, start: Int, end: Int) -> MessageLayout {
        let addressEnd = OSCWire.findNUL(base, from: start, to: end) ?? end
        let tagsComma = (addressEnd + 4) & ~3
        var layout = MessageLayout(
            start: start, end: end, addressLength: addressEnd - start,
            tagsStart: tagsComma, tagsLength: 0, argumentsStart: tagsComma, argumentCount: 0)
        guard tagsComma < end, let tagsEnd = OSCWire.findNUL(base, from: tagsComma, to: end) else {
            return layout
        }
        layout.tagsStart = tagsComma + 1
        layout.tagsLength = tagsEnd - tagsComma - 1
        layout.argumentsStart = (tagsEnd + 4) & ~3
        var count = 0
        var depth = 0
        var tagOffset = tagsComma + 1
        while tagOffset < tagsEnd {
            let tag = base.load(fromByteOffset: tagOffset, as: UInt8.self)
            if tag == OSCTypeTag.arrayEnd {
                depth &-= 1
            } else {
                if depth == 0 {
                    count &+= 1
                }
                if tag == OSCTypeTag.arrayStart {
                    depth &+= 1
                }
            }
            tagOffset &+= 1
        }
        layout.argumentCount = count
        return layout
    }
}
