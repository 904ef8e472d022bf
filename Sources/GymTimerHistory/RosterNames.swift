import Foundation
import GymTimerCore

/// The rules for an athlete's name and short name in the roster.
///
/// A name is 1 to 64 printable characters, leading and trailing spaces trimmed: none that a
/// name may not hold anywhere (`NameText`: control and format characters, line breaks), nor a
/// private-use or unassigned code point (a member's name is shown on every page and in
/// every table, and a code point with no glyph shows as nothing or as a box).
///
/// A short name is 1 to 4 characters a 7-segment digit draws (`DisplayContent.canDraw`); when
/// none is given it is derived from the name: its characters in order, spaces and anything a
/// digit cannot draw skipped (k, m, v, w, x, z, accented letters, punctuation), each kept as
/// written when the digit draws it that way and else in the other case (a lower-case `a` has
/// no shape, so `A`), until there are four: "Anna Berg" → `AnnA`, "Ben Ohl" → `bEno`, "Max
/// Weber" → `AEbE`. A name with no drawable character gets its first card's last four hex
/// digits (`CardID.shortTail`).
public enum RosterNames {
    /// The longest name, in characters.
    public static let maximumNameLength = 64

    /// `text` trimmed, when it is a usable name.
    public static func name(_ text: String) -> String? {
        let name = text.trimmingCharacters(in: .whitespaces)
        guard (1...maximumNameLength).contains(name.count),
              name.unicodeScalars.allSatisfy({ printable($0) }) else { return nil }
        return name
    }

    /// `text` when it is a usable short name (1 to 4 characters a digit draws, not all spaces).
    public static func shortName(_ text: String) -> String? {
        guard (1...4).contains(text.count), DisplayContent.canDraw(text),
              text.contains(where: { $0 != " " }) else { return nil }
        return text
    }

    /// The short name derived from `name` (see the type), else `card`'s last four hex digits.
    public static func shortName(derivedFrom name: String, card: CardID) -> String {
        var short = ""
        for character in name where character != " " && short.count < 4 {
            let forms = [String(character), character.uppercased(), character.lowercased()]
            if let drawn = forms.first(where: { $0.count == 1 && DisplayContent.drawable.contains(Character($0)) }) {
                short += drawn
            }
        }
        return short.isEmpty ? card.shortTail : short
    }

    /// Why `text` is no usable name, in one line (`bad athlete name …: …` follows it); nil when it is one.
    public static func problem(_ text: String) -> String? {
        guard name(text) == nil else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let problem = NameText.problem(trimmed) { return problem.description }
        if trimmed.count > maximumNameLength { return "must be 1 to \(maximumNameLength) characters, not \(trimmed.count)" }
        if trimmed.isEmpty { return "must be 1 to \(maximumNameLength) printable characters, not empty" }
        return "must be printable: no private-use or unassigned code points"
    }

    private static func printable(_ scalar: Unicode.Scalar) -> Bool {
        if NameText.isRefused(scalar) { return false }
        switch scalar.properties.generalCategory {
        case .surrogate, .privateUse, .unassigned: return false
        default: return true
        }
    }
}
