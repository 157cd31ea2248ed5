import HTTPCore
import Testing

@Suite struct Base64Tests {
    // RFC 4648 section 10.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test func everyByteValueRoundTrips() {
        let bytes = (0...255).map { UInt8($0) }
        for count in 0...bytes.count {
            let slice = Array(bytes.prefix(count))
            #expect(Base64.decode(Base64.encode(slice)) == slice)
        }
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
    }

    @Test(arguments: [
        "Zg", "Zg=", "Zm9vY", "Z===", "====", "=Zg=", "Zg==Zg==", "Zm=v", "Zh==", "Zm9=", "Zm9v\n", " Zm9v",
        "Zm9v ", "Zm-v", "Zm_v", "Zm9v\r\n", "Zm9vé===",
    ])
    func refusesWhatIsNotStrictBase64(text: String) {
        #expect(Base64.decode(text) == nil)
    }
}
