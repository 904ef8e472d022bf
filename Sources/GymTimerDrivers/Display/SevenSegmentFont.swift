/// The characters a 7-segment digit can show, as segment bytes (bit 0 = a … bit 6 = g).
///
/// Letters take the shape people read on such displays (`b`, `d`, `n`, `o`, `r`, `t`, …); a
/// character with no readable shape renders dark rather than as a misleading pattern.
public enum SevenSegmentFont {
    /// Segment byte for `character`; case-insensitive where only one case has a shape.
    public static func segments(for character: Character) -> UInt8 {
        if let exact = table[character] { return exact }
        if let lower = table[Character(character.lowercased())] { return lower }
        if let upper = table[Character(character.uppercased())] { return upper }
        return 0
    }

    /// The character a segment byte reads as (decimal point ignored); `?` for a pattern that
    /// is no character. Where shapes coincide, digits win (`0` not `O`, `5` not `S`).
    public static func character(for segments: UInt8) -> Character {
        reverse[segments & 0x7F] ?? "?"
    }

    /// What `digits` read as: `character(for:)` of each, written as UTF-8 straight into the
    /// string (the simulator's trace decodes every frame it writes).
    public static func text(of digits: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: digits.count * 2) { buffer in
            var count = 0
            for segments in digits {
                let utf8 = reverseUTF8[Int(segments & 0x7F)]
                buffer[count] = UInt8(truncatingIfNeeded: utf8)
                count += 1
                if utf8 > 0xFF {
                    buffer[count] = UInt8(truncatingIfNeeded: utf8 >> 8)
                    count += 1
                }
            }
            return count
        }
    }

    /// `character(for:)` of every pattern 0…127 as its UTF-8 bytes, the first in the low byte
    /// (every character of the font takes one or two).
    private static let reverseUTF8: [UInt16] = (0..<128).map { pattern in
        let bytes = Array(String(character(for: UInt8(pattern))).utf8)
        return bytes.count == 2 ? UInt16(bytes[0]) | UInt16(bytes[1]) << 8 : UInt16(bytes.first ?? UInt8(ascii: "?"))
    }

    /// The four segment bytes for `text` (padded with dark digits, cut at four).
    public static func render(_ text: String) -> [UInt8] {
        let chars = Array(text.prefix(4))
        return (0..<4).map { $0 < chars.count ? segments(for: chars[$0]) : 0 }
    }

    private static let table: [Character: UInt8] = [
        " ": 0x00, "0": 0x3F, "1": 0x06, "2": 0x5B, "3": 0x4F, "4": 0x66,
        "5": 0x6D, "6": 0x7D, "7": 0x07, "8": 0x7F, "9": 0x6F,
        "A": 0x77, "b": 0x7C, "C": 0x39, "c": 0x58, "d": 0x5E, "E": 0x79, "F": 0x71,
        "G": 0x3D, "H": 0x76, "h": 0x74, "I": 0x30, "i": 0x10, "J": 0x1E, "L": 0x38,
        "n": 0x54, "o": 0x5C, "P": 0x73, "q": 0x67, "r": 0x50, "S": 0x6D, "t": 0x78,
        "U": 0x3E, "u": 0x1C, "y": 0x6E, "-": 0x40, "_": 0x08, "=": 0x48, "°": 0x63,
    ]

    private static let reverse: [UInt8: Character] = {
        var map: [UInt8: Character] = [:]
        // Letters first, then digits and space overwrite shared shapes.
        for (char, bits) in table.sorted(by: { String($0.key) < String($1.key) }) where !char.isNumber {
            map[bits] = char
        }
        for (char, bits) in table where char.isNumber || char == " " { map[bits] = char }
        return map
    }()
}
