/// A contactless card's or fob's UID as its reader read it or the owner typed it (ISO 14443:
/// 4, 7 or 10 bytes; 1 to 10 accepted). Often the key to the gym's door as well, so it never
/// leaves the station that read it: the station turns it into the card's pseudonym
/// (`CardKey.pseudonym(of:)`) at once, and only that goes anywhere (issue 48).
public struct CardUID: Hashable, Sendable, CustomStringConvertible {
    /// The UID's bytes.
    public let bytes: [UInt8]

    /// The lengths a UID may have, in bytes.
    public static let byteCounts: ClosedRange<Int> = 1...10

    /// The UID of `bytes`, or nil for none or more than ten.
    public init?(bytes: [UInt8]) {
        guard Self.byteCounts.contains(bytes.count) else { return nil }
        self.bytes = bytes
    }

    /// The UID written as hex (either case, two digits a byte, an optional `:` between bytes),
    /// or nil when `text` is not one.
    public init?(hex text: String) {
        guard let bytes = HexBytes.decode(text, counts: Self.byteCounts) else { return nil }
        self.bytes = bytes
    }

    /// The UID as upper-case hex: for the owner's own terminal at the station (`selftest`), never
    /// for a log, a message or a database.
    public var hex: String { HexBytes.encode(bytes) }

    public var description: String { "a \(bytes.count)-byte card UID" }
}
