/// The one rule every name is held to wherever it enters: no Unicode control or format character.
///
/// A program's or a preset's name in a config, the console's builder or a class's command, a
/// station's or a gym's, an athlete's in the roster (CLI, console, collector): none may hold a
/// character of the general categories Cc and Cf (line breaks, tabs, escapes, bidirectional
/// overrides and isolates, zero-width characters, the soft hyphen, tag characters) or a line or
/// paragraph separator (Zl, Zp), any of which would reorder, hide or break the line a
/// leaderboard, a program list or a terminal table shows the name on.
///
/// Letters of every script, accents, CJK and emoji pass (Ångström, Zoë, 北京, 💪🏽). An emoji
/// sequence joined by U+200D (ZERO WIDTH JOINER, Cf), such as 👩‍💻, and a flag written with tag
/// characters are refused with the rest: one rule with no exceptions is what keeps a joiner or
/// a tag from hiding text; the error names the character, and the emoji alone still passes.
/// Pure standard library (`Unicode.Scalar.Properties`), no Foundation.
public enum NameText {
    /// What every refusal ends with.
    public static let rule = "names may not hold control or format characters"

    /// The first character of a name that breaks the rule, and where it is.
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        /// The refused scalar.
        public let scalar: Unicode.Scalar
        /// Its character's position in the name, from 1 (the characters a reader counts).
        public let position: Int

        /// What it is, as a person calls it: "a right-to-left override".
        public var kind: String { NameText.kind(of: scalar) }

        /// `has a right-to-left override (U+202E) at character 1: names may not hold control or
        /// format characters`: one line, the character named, never shown.
        public var description: String {
            "has \(kind) (\(NameText.code(scalar))) at character \(position): \(NameText.rule)"
        }
    }

    /// The first character of `text` that a name may not hold, or nil when `text` may be one
    /// (as far as its characters go: each entry point has its own length and alphabet).
    public static func problem(_ text: String) -> Problem? {
        var position = 0
        for character in text {
            position += 1
            if let scalar = character.unicodeScalars.first(where: isRefused) {
                return Problem(scalar: scalar, position: position)
            }
        }
        return nil
    }

    /// Whether a name may not hold `scalar`: a control or format character, or a line or
    /// paragraph separator.
    public static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// `text` with every scalar a name may not hold written as `\u{202E}`, so that an error
    /// quoting a refused name stays one line and in its order.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isRefused) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isRefused(scalar) {
                result += "\\u{" + hex(scalar) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` escaped (`escaped(_:)`) and in double quotes.
    public static func quoted(_ text: String) -> String { "\"" + escaped(text) + "\"" }

    /// `U+202E`: the scalar's code point, at least four hex digits.
    public static func code(_ scalar: Unicode.Scalar) -> String { "U+" + hex(scalar) }

    /// What `scalar` is, as a refusal names it ("a line break", "a zero-width space"); a
    /// control or format character without a name of its own is called just that.
    public static func kind(of scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x00: "a null character"
        case 0x09: "a tab"
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: "a line break"
        case 0x1B: "an escape"
        case 0x7F: "a delete character"
        case 0xAD: "a soft hyphen"
        case 0x061C: "an Arabic letter mark"
        case 0x180E: "a Mongolian vowel separator"
        case 0x200B: "a zero-width space"
        case 0x200C: "a zero-width non-joiner"
        case 0x200D: "a zero-width joiner"
        case 0x200E: "a left-to-right mark"
        case 0x200F: "a right-to-left mark"
        case 0x202A: "a left-to-right embedding"
        case 0x202B: "a right-to-left embedding"
        case 0x202C: "a pop directional formatting"
        case 0x202D: "a left-to-right override"
        case 0x202E: "a right-to-left override"
        case 0x2060: "a word joiner"
        case 0x2061...0x2064: "an invisible operator"
        case 0x2066: "a left-to-right isolate"
        case 0x2067: "a right-to-left isolate"
        case 0x2068: "a first strong isolate"
        case 0x2069: "a pop directional isolate"
        case 0xFEFF: "a zero-width no-break space"
        case 0xFFF9...0xFFFB: "an interlinear annotation character"
        case 0xE0000...0xE007F: "a tag character"
        default: scalar.properties.generalCategory == .control ? "a control character" : "a format character"
        }
    }

    /// The scalar's code point in upper-case hex, at least four digits.
    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
