/// A card as everything past its reader knows it: the card's pseudonym (`CardKey.pseudonym(of:)`,
/// 12 bytes of a keyed hash of its UID), as upper-case hex. What a station, the broker, the
/// console and the databases keep of a member's card: never the UID itself, which opens the gym's
/// door (issue 48). A card stored before pseudonyms is a UID (1 to 10 bytes) until
/// `CardKey.carried(_:)` migrates it, so those lengths still decode. Made only from bytes or text
/// of those lengths, so whatever a message hands over is either a `CardID` or refused.
public struct CardID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    /// The card as upper-case hex, two digits a byte.
    public let hex: String

    /// How long a pseudonym is, in bytes: longer than any UID, so the two never mix.
    public static let pseudonymByteCount = 12

    /// Whether a card may be `count` bytes long: a pseudonym's length, or a stored UID's from before.
    public static func isValidLength(_ count: Int) -> Bool {
        count == pseudonymByteCount || CardUID.byteCounts.contains(count)
    }

    /// The card of `bytes`, or nil for a length no card has.
    public init?(bytes: [UInt8]) {
        guard Self.isValidLength(bytes.count) else { return nil }
        hex = HexBytes.encode(bytes)
    }

    /// A pseudonym's card (`CardKey` makes them).
    init(pseudonym bytes: [UInt8]) {
        hex = HexBytes.encode(bytes)
    }

    /// The card written as hex (either case, two digits a byte, an optional `:` between bytes),
    /// or nil when `text` is not one.
    public init?(hex text: String) {
        guard let bytes = HexBytes.decode(text, counts: 1...Self.pseudonymByteCount), Self.isValidLength(bytes.count) else { return nil }
        hex = HexBytes.encode(bytes)
    }

    /// Whether this is a pseudonym, not a UID stored before pseudonyms.
    public var isPseudonym: Bool { hex.utf8.count == 2 * Self.pseudonymByteCount }

    /// The last four hex digits: the short code a card no name is known for shows (the display,
    /// the console's "new card").
    public var shortTail: String { String(hex.suffix(4)) }

    public var description: String { hex }

    public static func < (a: CardID, b: CardID) -> Bool { a.hex < b.hex }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let card = CardID(hex: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a card: its pseudonym, 12 bytes of hex"))
        }
        self = card
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
