#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension UUID {
    /// The UUID folded into 64 bits: the XOR of its two halves, each read little-endian.
    ///
    /// A knob without a parameter uses it as its identifier.
    public var asUInt64: UInt64 {
        let bytes = uuid
        let low = [bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5, bytes.6, bytes.7]
        let high = [bytes.8, bytes.9, bytes.10, bytes.11, bytes.12, bytes.13, bytes.14, bytes.15]
        func littleEndian(_ bytes: [UInt8]) -> UInt64 {
            bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        }
        return littleEndian(low) ^ littleEndian(high)
    }
}
