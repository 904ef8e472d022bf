/// The few ANSI escape sequences the terminal simulator writes.
public enum ANSI {
    public static let reset = "\u{1B}[0m"
    public static let litSegment = "\u{1B}[1;91m"
    public static let darkSegment = "\u{1B}[0;90m"
    public static let dim = "\u{1B}[2m"
    public static let bold = "\u{1B}[1m"
    public static let clearToEndOfLine = "\u{1B}[K"
    public static let clearScreen = "\u{1B}[2J"
    public static let hideCursor = "\u{1B}[?25l"
    public static let showCursor = "\u{1B}[?25h"
    public static let enterAlternateScreen = "\u{1B}[?1049h"
    public static let leaveAlternateScreen = "\u{1B}[?1049l"

    /// Foreground colour `code` (30…37, 90…97), bold when `bold`.
    public static func colour(_ code: Int, bold: Bool = false) -> String { "\u{1B}[\(bold ? "1;" : "")\(code)m" }

    /// Moves the cursor to `row`, `column` (1-based).
    public static func moveTo(row: Int, column: Int = 1) -> String { "\u{1B}[\(row);\(column)H" }
}
