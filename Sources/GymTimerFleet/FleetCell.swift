import GymTimerCore

/// A value from the network made safe to print in a terminal table or a log line: anything
/// another station (or anyone who can publish) put in a retained topic may hold escape
/// sequences, other control characters, bidirectional overrides or a megabyte of text. Those
/// are shown as `?`, and the text is cut to a bounded width with `…`.
public enum FleetCell {
    /// `text` with every control or formatting character replaced by `?`, at most `width`
    /// characters (the last one `…` when cut).
    public static func text(_ text: String, width: Int) -> String {
        let width = max(1, width)
        // Only the first width + 1 characters are looked at, however long the text.
        let head = text.prefix(width + 1)
        let cut = head.count > width
        let kept = cut ? head.prefix(width - 1) : head
        return String(kept.map { isPrintable($0) ? $0 : "?" }) + (cut ? "…" : "")
    }

    /// `text` sanitised as `text(_:width:)` and in double quotes.
    public static func quoted(_ text: String, width: Int) -> String { "\"" + Self.text(text, width: width) + "\"" }

    /// Whether `character` prints as itself: nothing a name may not hold (`NameText`: no C0/C1
    /// control, DEL, invisible formatting such as bidirectional overrides and zero-width
    /// characters, no line break), and no private-use or unassigned code point.
    static func isPrintable(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy { scalar in
            if NameText.isRefused(scalar) { return false }
            switch scalar.properties.generalCategory {
            case .surrogate, .privateUse, .unassigned: return false
            default: return true
            }
        }
    }
}
