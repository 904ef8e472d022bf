/// Text for a terminal's grid of cells, measured and cut by the columns it takes, not by its
/// bytes or characters. What reaches the terminal kiosk's screen comes from the config and the
/// network (a broker's error, a coach's command), so it is first made inert (`sanitized`): no
/// control character reaches the terminal to move the cursor, clear it or start an escape
/// sequence. Widths follow what terminals do (wcwidth, one scalar at a time): East Asian wide
/// and emoji-presentation characters take two columns, combining marks and format characters
/// none, everything else one; a line is never cut inside a character (a grapheme cluster).
public enum TerminalText {
    /// Shown in place of a character the terminal would act on instead of showing.
    static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// `text` with tabs and line breaks as spaces and every other control character (C0, DEL,
    /// C1, line and paragraph separators, bidirectional overrides) as U+FFFD.
    public static func sanitized(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: scalars.append(" ")
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                scalars.append(replacement)
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// The columns one scalar takes: 0, 1 or 2.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 ? 0 : 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(value) || value == 0x200B { return 0 }
        if scalar.properties.isEmojiPresentation || wide.contains(where: { $0.contains(value) }) { return 2 }
        return 1
    }

    /// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth.txt, W and F, by block).
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// The columns `character` takes: the sum of its scalars', as a terminal adds them up.
    public static func width(of character: Character) -> Int {
        character.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    /// `text` in the pieces a line may be cut between, with their widths: its characters, but
    /// one wider than 2 columns (a long ZWJ sequence, which a terminal draws scalar by scalar)
    /// in its scalars, so no piece is wider than 2.
    static func pieces(_ text: Substring) -> [(text: String, width: Int)] {
        var pieces: [(text: String, width: Int)] = []
        for character in text {
            let width = width(of: character)
            if width <= 2 {
                pieces.append((String(character), width))
            } else {
                for scalar in character.unicodeScalars { pieces.append((String(scalar), Self.width(of: scalar))) }
            }
        }
        return pieces
    }

    /// The columns `line` takes on a terminal, its escape sequences (`ESC [ … final`) skipped.
    public static func width(_ line: String) -> Int {
        var width = 0
        var inEscape = false
        for scalar in line.unicodeScalars {
            if inEscape {
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                width += Self.width(of: scalar)
            }
        }
        return width
    }

    /// The longest start of `text` (plain, sanitized) that fits in `columns`, ending in `…`
    /// when it was cut; empty when not even that fits.
    public static func truncated(_ text: String, columns: Int) -> String {
        if width(text) <= columns { return text }
        guard columns >= 1 else { return "" }
        var kept = ""
        var used = 0
        for piece in pieces(text[...]) {
            if used + piece.width > columns - 1 { break }
            kept += piece.text
            used += piece.width
        }
        return kept + "…"
    }

    /// `text` (plain, sanitized) broken at spaces into lines of at most `columns` (at least 2;
    /// 1 fits all but wide characters), a word wider than that cut between characters; the
    /// spaces between words on one line are kept, those at a break dropped; the lines after the
    /// first begin with `indent` spaces (less when `columns` leaves no room for them).
    public static func wrapped(_ text: String, columns: Int, indent: Int = 0) -> [String] {
        let columns = max(1, columns)
        let indent = max(0, min(indent, columns - 2))
        var lines: [String] = []
        var line = ""
        var used = 0
        /// Where the current line's text starts: after its indent.
        var start: Int { lines.isEmpty ? 0 : indent }
        func newLine() {
            lines.append(line)
            line = String(repeating: " ", count: indent)
            used = indent
        }
        var gap = 0
        var rest = text[...]
        while !rest.isEmpty {
            let spaces = rest.prefix { $0 == " " }
            gap += spaces.count
            rest = rest.dropFirst(spaces.count)
            let word = rest.prefix { $0 != " " }
            rest = rest.dropFirst(word.count)
            if word.isEmpty { break }
            let pieces = pieces(word)
            let wordWidth = pieces.reduce(0) { $0 + $1.width }
            if used > start || (lines.isEmpty && gap > 0) {
                if used + gap + wordWidth <= columns {
                    line += String(repeating: " ", count: gap)
                    used += gap
                } else if used > start {
                    newLine()
                }
            }
            gap = 0
            for piece in pieces {
                if used + piece.width > columns, used > start { newLine() }
                line += piece.text
                used += piece.width
            }
        }
        if !line.isEmpty && (used > start || lines.isEmpty) { lines.append(line) }
        return lines
    }
}
