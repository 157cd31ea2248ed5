/// SHA-1 (FIPS 180-4 section 6.1), for the WebSocket handshake's `Sec-WebSocket-Accept` only.
///
/// RFC 6455 fixes SHA-1 for the accept value; it proves that the server read the key, not that
/// anything is secret, so SHA-1's collision weakness does not matter here. Do not use it for more.
public enum SHA1 {
    /// The 20-byte digest of `message`.
    ///
    /// - Parameter message: the bytes to hash, of any length.
    /// - Returns: the digest, big-endian, 20 bytes.
    /// - Complexity: O(n) in the message's length; the message is not copied, only its last block
    ///   or two, which carry the padding.
    public static func digest(of message: [UInt8]) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
        )
        let fullBlocks = message.count / 64
        for block in 0..<fullBlocks {
            compress(&state, message[(block * 64)..<(block * 64 + 64)])
        }
        // The tail, then 0x80, zeros up to 56 bytes modulo 64, and the length in bits (a 64-bit
        // big-endian count, taken modulo 2^64 as FIPS 180-4 does for its ℓ < 2^64).
        var tail = Array(message[(fullBlocks * 64)...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bits = UInt64(message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> shift)) }
        for block in 0..<(tail.count / 64) {
            compress(&state, tail[(block * 64)..<(block * 64 + 64)])
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(20)
        for word in [state.0, state.1, state.2, state.3, state.4] {
            for shift in stride(from: 24, through: 0, by: -8) {
                digest.append(UInt8(truncatingIfNeeded: word >> shift))
            }
        }
        return digest
    }

    // One block of 64 bytes through the 80 rounds (FIPS 180-4 section 6.1.2).
    private static func compress(_ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32), _ block: ArraySlice<UInt8>) {
        var schedule = [UInt32](repeating: 0, count: 80)
        var index = block.startIndex
        for t in 0..<16 {
            schedule[t] =
                UInt32(block[index]) << 24 | UInt32(block[index + 1]) << 16 | UInt32(block[index + 2]) << 8
                | UInt32(block[index + 3])
            index += 4
        }
        for t in 16..<80 {
            schedule[t] = rotateLeft(schedule[t - 3] ^ schedule[t - 8] ^ schedule[t - 14] ^ schedule[t - 16], 1)
        }
        var (a, b, c, d, e) = state
        for t in 0..<80 {
            let f: UInt32
            let k: UInt32
            switch t {
            case 0..<20:
                f = (b & c) | (~b & d)
                k = 0x5A82_7999
            case 20..<40:
                f = b ^ c ^ d
                k = 0x6ED9_EBA1
            case 40..<60:
                f = (b & c) | (b & d) | (c & d)
                k = 0x8F1B_BCDC
            default:
                f = b ^ c ^ d
                k = 0xCA62_C1D6
            }
            let temp = rotateLeft(a, 5) &+ f &+ e &+ k &+ schedule[t]
            e = d
            d = c
            c = rotateLeft(b, 30)
            b = a
            a = temp
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
    }

    private static func rotateLeft(_ word: UInt32, _ count: UInt32) -> UInt32 {
        word << count | word >> (32 - count)
    }
}
