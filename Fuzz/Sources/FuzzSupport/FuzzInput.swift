/// The bytes libFuzzer hands to a target, with helpers to take control bytes off the front.
public struct FuzzInput {
    /// The bytes not taken yet.
    public private(set) var bytes: ArraySlice<UInt8>

    /// Copies the input of one libFuzzer call.
    public init(_ start: UnsafePointer<UInt8>, _ count: Int) {
        bytes = ArraySlice(UnsafeBufferPointer(start: start, count: count))
    }

    /// Takes the first byte, or returns 0 when the input is used up.
    public mutating func takeByte() -> UInt8 {
        guard let first = bytes.first else { return 0 }
        bytes = bytes.dropFirst()
        return first
    }

    /// Splits the remaining bytes into chunks whose sizes cycle through `sizes` (each at least 1).
    public func chunks(sizes: [Int]) -> [ArraySlice<UInt8>] {
        precondition(!sizes.isEmpty && sizes.allSatisfy { $0 > 0 })
        var result: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var turn = 0
        while start < bytes.endIndex {
            let end = min(start + sizes[turn % sizes.count], bytes.endIndex)
            result.append(bytes[start..<end])
            start = end
            turn += 1
        }
        return result
    }
}
