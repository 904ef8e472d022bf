import GymTimerDrivers

/// A 4-digit 7-segment display drawn large in a terminal, from the segment bits of a
/// `SegmentFrame` (not from its decoded text), so what the chip would light is what is drawn:
/// a blinking `00:00` blinks, an odd segment pattern shows as it is.
///
/// Each digit is 10 columns by 7 rows, vertical segments two columns wide so they look as
/// thick as the one-row horizontal ones; then its decimal point; the colon sits between the
/// second and third digit.
public enum SegmentArt {
    /// How one cell of the drawing looks.
    public enum Cell: Hashable, Sendable {
        case blank, lit, dark
    }

    /// Rows of a digit and its decimal point (14 columns), a letter naming the segment each
    /// cell belongs to: `a`…`g` for bits 0…6, `p` for the decimal point (bit 7).
    static let digitTemplate = [
        "  aaaaaa      ",
        "ff      bb    ",
        "ff      bb    ",
        "  gggggg      ",
        "ee      cc    ",
        "ee      cc    ",
        "  dddddd   pp ",
    ]
    /// The colon's column block (6 columns), `:` where it lights.
    static let colonTemplate = ["      ", "      ", "::    ", "      ", "::    ", "      ", "      "]

    /// Rows in the drawing.
    public static let height = 7
    /// Columns in the drawing.
    public static let width = 4 * 14 + 6

    /// The drawing of `frame`, row by row, each `width` cells.
    public static func cells(for frame: SegmentFrame) -> [[Cell]] {
        (0..<height).map { row in
            var cells: [Cell] = []
            for (index, bits) in frame.digits.enumerated() {
                if index == 2 { cells += colonTemplate[row].map { $0 == ":" ? (frame.colon ? .lit : .dark) : .blank } }
                cells += digitTemplate[row].map { letter in
                    guard let bit = segmentBit(letter) else { return .blank }
                    return bits & (1 << bit) != 0 ? .lit : .dark
                }
            }
            return cells
        }
    }

    /// The drawing as text, each cell repeated `scale` times across and down (a bigger
    /// display for a bigger terminal). Plain: lit segments `█`, dark ones blank. In colour: lit
    /// segments bright red `█`, dark ones a dim `░` like an unlit LED, with a colour code only
    /// where the kind of cell changes.
    public static func lines(for frame: SegmentFrame, colour: Bool = false, scale: Int = 1) -> [String] {
        let scale = max(1, scale)
        return cells(for: frame).flatMap { row -> [String] in
            let wide = row.flatMap { Array(repeating: $0, count: scale) }
            return Array(repeating: text(of: wide, colour: colour), count: scale)
        }
    }

    /// One row of cells as text.
    private static func text(of row: [Cell], colour: Bool) -> String {
        guard colour else {
            return String(row.map { $0 == .lit ? "█" : " " })
        }
        var line = ""
        var current = Cell.blank
        for cell in row {
            switch cell {
            case .blank:
                line += " "
            case .lit, .dark:
                if cell != current { line += cell == .lit ? ANSI.litSegment : ANSI.darkSegment }
                current = cell
                line += cell == .lit ? "█" : "░"
            }
        }
        return current == .blank ? line : line + ANSI.reset
    }

    private static func segmentBit(_ letter: Character) -> Int? {
        switch letter {
        case "a": return 0
        case "b": return 1
        case "c": return 2
        case "d": return 3
        case "e": return 4
        case "f": return 5
        case "g": return 6
        case "p": return 7
        default: return nil
        }
    }
}
