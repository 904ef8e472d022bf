/// The gym's (or the chain's) card key: the secret a card's pseudonym is made with, one for every
/// station and server of the gym, so one fob is one member everywhere. A station turns each UID
/// it reads into `pseudonym(of:)` at once; whoever holds only pseudonyms (the broker, the
/// console, Home Assistant, a database) can neither recover the UID nor make the pseudonym of a
/// UID they learn elsewhere (issue 48, docs/security.md).
public struct CardKey: Sendable, Hashable {
    /// The secret's bytes.
    let secret: [UInt8]

    /// How long a key may be, in bytes: 16 at least, so it cannot be guessed.
    public static let byteCounts: ClosedRange<Int> = 16...64
    /// How long a key `generate` makes, in bytes.
    public static let generatedByteCount = 32

    /// The key of `secret`, or nil when it is shorter than 16 bytes or longer than 64.
    public init?(secret: [UInt8]) {
        guard Self.byteCounts.contains(secret.count) else { return nil }
        self.secret = secret
    }

    /// The key a key file holds: its hex on the first line (surrounding blanks ignored), or
    /// nil when that is not 16 to 64 bytes of hex.
    public init?(text: String) {
        let line = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).first ?? ""
        let trimmed = line.trimmingBlanks
        guard !trimmed.contains(":"), let bytes = HexBytes.decode(trimmed, counts: Self.byteCounts) else { return nil }
        secret = bytes
    }

    /// The key of a scripted simulation whose config names none: public (the hash of a fixed
    /// sentence), so a script's pseudonyms are the same on every machine. Never a gym's.
    public static let simulation = CardKey(secret: SHA256.hash(Array("GymTimer simulator: a public card key, never a gym's".utf8)))!

    /// A new key from the system's random source.
    public static func generate() -> CardKey {
        var random = SystemRandomNumberGenerator()
        return CardKey(secret: (0..<generatedByteCount).map { _ in random.next() })!
    }

    /// What a key file holds: the hex and a line end.
    public var fileText: String { HexBytes.encode(secret) + "\n" }

    /// The card's pseudonym: HMAC-SHA-256 of its UID's bytes under the key, its first
    /// `CardID.pseudonymByteCount` bytes.
    public func pseudonym(of uid: CardUID) -> CardID {
        CardID(pseudonym: Array(HMACSHA256.code(key: secret, message: uid.bytes).prefix(CardID.pseudonymByteCount)))
    }

    /// `card` as it is carried from now on: a stored card from before pseudonyms (a UID in a
    /// database, a journal or an outbox) becomes its pseudonym, a pseudonym stays as it is.
    /// Applying it twice changes nothing, so a migration can be run again safely.
    public func carried(_ card: CardID) -> CardID {
        guard !card.isPseudonym, let uid = CardUID(hex: card.hex) else { return card }
        return pseudonym(of: uid)
    }
}

extension Substring {
    /// Without the spaces and tabs at either end.
    fileprivate var trimmingBlanks: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
