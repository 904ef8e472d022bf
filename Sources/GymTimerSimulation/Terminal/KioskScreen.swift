import GymTimerCore
import GymTimerDrivers

/// The simulated kiosk's front panel as a terminal screen: the display drawn large, the
/// status LEDs as dots, the buzzer, the sound playing (with the words of a spoken cue), a
/// status line, the key legend and the latest events, centred in the terminal, the digits
/// scaled up where there is room (80×24 is enough for the smallest, with fewer events).
/// Callers set the outputs as they change; `update()` gives the escape codes that rewrite only
/// the lines that differ from what was last drawn, so nothing flickers.
public final class KioskScreen {
    public var frame = SegmentFrame.dark
    public var leds: [StatusLED: Bool] = [:]
    public var buzzer = false
    public var sound: String?
    /// One line under the panel: what the kiosk is doing.
    public var status = ""
    /// The latest events, oldest first (`TerminalEventLog.lines()`); the newest are shown
    /// where the terminal has no room for all.
    public var events: [String] = []
    /// The terminal's size; a change redraws the whole screen at the next `update()`.
    public var size = TerminalSize.standard
    /// Colour codes on (a terminal) or off (tests, plain captures).
    public let colour: Bool
    /// The lines on the terminal now, nil before the first draw.
    private var shown: [String]?
    /// The size they were laid out for.
    private var shownSize: TerminalSize?

    public init(colour: Bool = true) {
        self.colour = colour
    }

    /// Columns left free on each side of the panel, at least.
    static let margin = 2
    /// The largest the digits are drawn: each cell 3×3.
    static let maxScale = 3

    /// The smallest terminal the panel fits in (the status and the sound are cut to fit, the
    /// events wrapped: only the drawing, the LEDs and the key legend set it).
    public var minimumSize: TerminalSize { Self.size(of: panel(scale: 1, textColumns: 0)) }

    /// The whole screen, top line first: the panel at the largest scale that fits, centred,
    /// with the newest events that fit under it; in a terminal smaller than `minimumSize`, a
    /// request to enlarge it. No line is wider than the terminal, whatever the texts hold:
    /// every text is sanitized (`TerminalText`), the status and sound lines are cut and the
    /// events wrapped by the columns they take.
    public func lines() -> [String] {
        let textColumns = max(0, size.columns - 2 * Self.margin)
        let eventRows = events.map { Self.eventRows($0, columns: textColumns).map { styled($0, ANSI.dim) } }
        let allRows = eventRows.flatMap { $0 }
        let eventBlock = allRows.isEmpty ? [] : [""] + allRows
        let panels = (1...Self.maxScale).reversed().lazy.map { self.panel(scale: $0, textColumns: textColumns) }
        var panel = panels.map { $0 + eventBlock }.first { self.size.fits(Self.size(of: $0)) }
        if panel == nil, let smaller = panels.first(where: { self.size.fits(Self.size(of: $0)) }) {
            // No room for every event: as many of the newest as fit.
            let room = size.rows - smaller.count - 1
            let rows = events.map { Self.eventRows($0, columns: textColumns) }
            panel = smaller + (room >= 1 && !allRows.isEmpty
                ? [""] + Self.newest(rows, rows: room, columns: textColumns).map { styled($0, ANSI.dim) } : [])
        }
        guard let panel else { return tooSmall() }
        let panelSize = Self.size(of: panel)
        let left = String(repeating: " ", count: max(0, (size.columns - panelSize.columns) / 2) + Self.margin)
        let top = Array(repeating: "", count: max(0, (size.rows - panelSize.rows) / 2))
        return top + panel.map { $0.isEmpty ? $0 : left + $0 }
    }

    /// One event as the rows it takes in `columns`: sanitized, wrapped under its text (past its
    /// time, `0:12.4  `).
    static func eventRows(_ event: String, columns: Int) -> [String] {
        let text = TerminalText.sanitized(event)
        let indent = text.range(of: "  ").map { TerminalText.width(String(text[..<$0.upperBound])) } ?? 0
        return TerminalText.wrapped(text, columns: columns, indent: indent <= 12 ? indent : 0)
    }

    /// The rows of the newest events that fit in `rows`, oldest first; when even the newest
    /// does not fit, its first `rows`, the last ending in `…` within `columns`.
    static func newest(_ events: [[String]], rows: Int, columns: Int) -> [String] {
        var kept: [String] = []
        for event in events.reversed() {
            if kept.count + event.count > rows {
                if kept.isEmpty, rows >= 1 {
                    kept = Array(event.prefix(rows))
                    let last = kept[rows - 1]
                    let width = TerminalText.width(last)
                    kept[rows - 1] = width < columns ? last + "…" : TerminalText.truncated(last + "…", columns: width)
                }
                break
            }
            kept = event + kept
        }
        return kept
    }

    /// The panel, without margins, its digits drawn at `scale`, the status and the sound cut to
    /// `textColumns` (sanitized: they hold names from the config).
    func panel(scale: Int, textColumns: Int = Int.max) -> [String] {
        let boxWidth = SegmentArt.width * scale + 4
        let rule = String(repeating: "─", count: boxWidth)
        let empty = String(repeating: " ", count: boxWidth)
        var lines = [styled("GymTimer — simulated kiosk, real time", ANSI.bold), ""]
        lines.append("┌" + rule + "┐")
        lines.append("│" + empty + "│")
        for art in SegmentArt.lines(for: frame, colour: colour, scale: scale) {
            lines.append("│  " + art + "  │")
        }
        lines.append("│" + empty + "│")
        lines.append("└" + rule + "┘")
        lines.append("")
        lines.append(ledLine())
        lines.append("")
        let buzzerText = "buzzer  " + (buzzer ? styled("BZZT", ANSI.colour(93, bold: true)) : styled("----", ANSI.dim))
            + "      sound  "
        let soundText = sound.map { "♪ " + TerminalEventLog.soundText($0) } ?? "(silent)"
        let soundColumns = textColumns - TerminalText.width(buzzerText)
        lines.append(buzzerText + styled(
            TerminalText.truncated(TerminalText.sanitized(soundText), columns: soundColumns),
            sound == nil ? ANSI.dim : ANSI.colour(96, bold: true)))
        lines.append(TerminalText.truncated(TerminalText.sanitized(status), columns: textColumns))
        lines.append("")
        lines.append(styled("s/space  start       S  hold start 2.2 s     ←/→ + -  knob", ANSI.dim))
        lines.append(styled("d/enter  dismiss     D  hold dismiss 2.2 s   q/Ctrl-C quit    Ctrl-L redraw", ANSI.dim))
        return lines
    }

    /// What a terminal too small for the panel shows: the size it needs, in lines that fit.
    private func tooSmall() -> [String] {
        let needed = minimumSize
        let message = "GymTimer: enlarge the terminal to at least \(needed) (it is \(size)); q quits"
        return TerminalText.wrapped(message, columns: max(1, size.columns)).prefix(max(1, size.rows)).map { $0 }
    }

    /// The columns and rows `lines` take on a terminal, margins included.
    static func size(of lines: [String]) -> TerminalSize {
        TerminalSize(columns: (lines.map(TerminalText.width).max() ?? 0) + 2 * margin, rows: lines.count)
    }

    /// Escape codes that bring the terminal up to date: a clear and every line the first time
    /// (and after a resize or `invalidate()`), then only the lines that changed (empty when
    /// none did).
    public func update() -> String {
        if shownSize != size { shown = nil }
        let next = lines()
        var output = shown == nil ? ANSI.moveTo(row: 1) + ANSI.clearScreen : ""
        for (index, line) in next.enumerated() where shown.map({ index >= $0.count || $0[index] != line }) ?? true {
            output += ANSI.moveTo(row: index + 1) + line + ANSI.clearToEndOfLine
        }
        if let shown, shown.count > next.count {
            for row in next.count..<shown.count { output += ANSI.moveTo(row: row + 1) + ANSI.clearToEndOfLine }
        }
        shown = next
        shownSize = size
        return output
    }

    /// Forgets what is on the terminal, so the next `update()` redraws it all.
    public func invalidate() { shown = nil }

    private func ledLine() -> String {
        let colours: [StatusLED: Int] = [.ready: 92, .rest: 93, .alarm: 91, .low: 94, .high: 95]
        return StatusLED.allCases.map { led in
            leds[led] == true
                ? styled("●", ANSI.colour(colours[led] ?? 97, bold: true)) + " " + led.rawValue
                : styled("○ " + led.rawValue, ANSI.dim)
        }.joined(separator: "    ")
    }

    private func styled(_ text: String, _ code: String) -> String {
        colour ? code + text + ANSI.reset : text
    }
}
