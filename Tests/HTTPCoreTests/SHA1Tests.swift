import HTTPCore
import Testing

@Suite struct SHA1Tests {
    private func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }

    // FIPS 180-2 appendix A and the NIST example vectors for SHA-1.
    @Test(arguments: [
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        ("The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"),
    ])
    func publishedVectors(message: String, digest: String) {
        #expect(hex(SHA1.digest(of: Array(message.utf8))) == digest)
    }

    @Test func aMillionAs() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(hex(SHA1.digest(of: message)) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    // Around the padding's edges: 55 bytes leave room for 0x80 and the length in one block, 56 do
    // not, 64 fill a block exactly. Byte i is (7i + 1) mod 256; digests from Python's hashlib.
    @Test(arguments: [
        (55, "04bb34aef4880b625e6b1564a014abd25fc02bfe"), (56, "83b9fcb6d3e3b20f376ab989a1b6353bcc6c0f44"),
        (63, "ab15090e8dbe512f3733350f9623ab11f9b5165b"), (64, "54305ee7e4c7bc5a96afc6d1994fc52d9bcb665f"),
        (65, "5985422a25357371ebd2a7f6ecd7eebed43db42c"), (119, "6839d6c27f22ed884ac43ae6bd3bfcee9e04b938"),
        (120, "8c40517a14ab8b78fd4b8958f4e31254a34c3fb0"),
    ])
    func paddingEdges(count: Int, digest: String) {
        let message = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
        #expect(hex(SHA1.digest(of: message)) == digest)
    }
}
