/// HMAC-SHA-256 (RFC 2104 over `SHA256`): a keyed hash that whoever lacks the key can neither
/// make nor invert, what a card's pseudonym is to be made with (issue 48: the gym's secret as
/// the key, the card's UID as the message). Checked against RFC 4231's test cases
/// (`SHA256Tests`).
public enum HMACSHA256 {
    /// The authentication code of `message` under `key` (any length: one longer than a block
    /// is hashed first, as RFC 2104 says).
    public static func code(key: [UInt8], message: some Sequence<UInt8>) -> [UInt8] {
        var block = key.count > SHA256.blockByteCount ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: SHA256.blockByteCount - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }
}
