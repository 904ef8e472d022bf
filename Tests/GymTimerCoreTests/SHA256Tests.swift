import GymTimerCore
import Testing

/// SHA-256 against FIPS 180-4's and NIST's example digests (one block, two blocks, a million
/// bytes, the padding's edges), and HMAC-SHA-256 against RFC 4231's test cases.
@Suite struct SHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("The quick brown fox jumps over the lazy dog", "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"),
    ])
    func digestsAreFIPSs(message: String, digest: String) {
        #expect(Self.hex(SHA256.hash(Array(message.utf8))) == digest)
    }

    /// A million `a`s (NIST's long message), fed in pieces that cross the blocks' edges.
    @Test func aMillionBytesInPieces() {
        var hasher = SHA256()
        for _ in 0..<1000 { hasher.update([UInt8](repeating: UInt8(ascii: "a"), count: 1000)) }
        #expect(Self.hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the padding's edges (55, 56 and 64 bytes) differ from each other and from a
    /// one-byte change: the length is in the padding.
    @Test func paddingEdges() {
        let digests = [55, 56, 63, 64, 65].map { SHA256.hash([UInt8](repeating: 0x61, count: $0)) }
        #expect(Set(digests.map(Self.hex)).count == 5)
        #expect(Self.hex(digests[1]) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
    }

    @Test(arguments: [
        // RFC 4231, test cases 1, 2, 4, 6 and 7 (6 and 7: a key longer than a block).
        ("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "4869205468657265",
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        ("4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ("0102030405060708090a0b0c0d0e0f10111213141516171819",
         String(repeating: "cd", count: 50), "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        (String(repeating: "aa", count: 131), "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        (String(repeating: "aa", count: 131),
         "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d414320616c676f726974686d2e",
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ])
    func hmacIsRFC4231s(key: String, message: String, code: String) {
        #expect(Self.hex(HMACSHA256.code(key: Self.bytes(key), message: Self.bytes(message))) == code)
    }

    /// The key matters: one bit of it changes the code.
    @Test func anotherKeyAnotherCode() {
        let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3]
        let one = HMACSHA256.code(key: Array("north-gym".utf8), message: uid)
        let other = HMACSHA256.code(key: Array("north-gyn".utf8), message: uid)
        #expect(one != other && one.count == 32)
    }
}
