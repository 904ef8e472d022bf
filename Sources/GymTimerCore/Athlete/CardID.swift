/// A contactless card's or fob's UID (ISO 14443: 4, 7 or 10 bytes; 1 to 10 accepted), as
/// upper-case hex (`04A1B2C3`). What a station keeps of a member: never a name, beyond the short
/// name it shows for a moment. Made only from bytes or text that are a UID, so whatever a reader
/// or a message hands over (any length, any bytes) is either a `CardID` or refused.
public struct CardID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    /// The UID as upper-case hex, two digits a byte.
    public let hex: String

    /// The lengths a UID may have, in bytes.
    public static let byteCounts: ClosedRange<Int> = 1...10

    /// The UID of `bytes`, or nil for none or more than ten.
    public init?(bytes: [UInt8]) {
        guard Self.byteCounts.contains(bytes.count) else { return nil }
        let digits = Array("0123456789ABCDEF")
        hex = String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }

    /// The UID written as hex (either case, two digits a byte, an optional `:` between bytes),
    /// or nil when `text` is not one.
    public init?(hex text: String) {
        let digits = text.utf8.count <= 3 * Self.byteCounts.upperBound ? text.filter { $0 != ":" } : ""
        guard digits.count.isMultiple(of: 2), Self.byteCounts.contains(digits.count / 2),
              digits.allSatisfy({ $0.isHexDigit && $0.isASCII }) else { return nil }
        hex = digits.uppercased()
    }

    /// The last four hex digits: what a card no name is known for shows on the display.
    public var shortTail: String { String(hex.suffix(4)) }

    public var description: String { hex }

    public static func < (a: CardID, b: CardID) -> Bool { a.hex < b.hex }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let card = CardID(hex: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a card UID: 1 to 10 bytes of hex"))
        }
        self = card
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
