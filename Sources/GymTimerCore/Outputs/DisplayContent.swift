/// What the 4-digit display should show: four characters (space = dark digit), the colon, and
/// whether the whole display or just the colon blinks. Rendering to segments is the drivers' job.
public struct DisplayContent: Hashable, Sendable, Codable, CustomStringConvertible {
    /// What blinks at 2 Hz.
    public enum Blink: String, Hashable, Sendable, Codable { case none, all, colon }

    /// Exactly four characters, one per digit.
    public var text: String
    public var colon: Bool
    public var blink: Blink

    public init(text: String, colon: Bool = false, blink: Blink = .none) {
        let padded = String(text.prefix(4))
        self.text = padded + String(repeating: " ", count: 4 - padded.count)
        self.colon = colon
        self.blink = blink
    }

    /// The whole display dark.
    public static let blank = DisplayContent(text: "    ")

    /// A time as MM:SS with the colon lit (minutes beyond 99 show as 99:59).
    public static func time(seconds: Int, blink: Blink = .none) -> DisplayContent {
        let clamped = max(0, min(seconds, 99 * 60 + 59))
        let mm = clamped / 60, ss = clamped % 60
        return DisplayContent(text: twoDigits(mm) + twoDigits(ss), colon: true, blink: blink)
    }

    /// A number right-aligned without leading zeros (e.g. ` 150`), colon dark.
    public static func number(_ value: Int) -> DisplayContent {
        let text = String(max(0, min(value, 9999)))
        return DisplayContent(text: String(repeating: " ", count: 4 - text.count) + text)
    }

    /// A letter then a number right-aligned in three digits (`r  2`, `E  8`, `C150`); a number
    /// too long for three digits is shown alone.
    public static func tagged(_ letter: String, _ value: Int) -> DisplayContent {
        let number = String(max(0, value))
        guard number.count <= 3 else { return .number(value) }
        return DisplayContent(text: letter + String(repeating: " ", count: 3 - number.count) + number)
    }

    /// The characters a 7-segment digit draws readably (the drivers' font has exactly these);
    /// a letter counts when either of its cases has a shape.
    public static let drawable: Set<Character> = Set(" 0123456789AbCcdEFGHhIiJLnoPqrStUuy-_=°")

    /// Whether the display can draw `text`: at most four characters, each in `drawable`.
    public static func canDraw(_ text: String) -> Bool {
        // Case mapping may give several characters (`ß` → `SS`): only a single one can match.
        func drawn(_ variant: String) -> Bool { variant.count == 1 && drawable.contains(Character(variant)) }
        return text.count <= 4 && text.allSatisfy { char in
            drawable.contains(char) || drawn(char.lowercased()) || drawn(char.uppercased())
        }
    }

    public var description: String { colon ? "\(text.prefix(2)):\(text.suffix(2))" : text }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
