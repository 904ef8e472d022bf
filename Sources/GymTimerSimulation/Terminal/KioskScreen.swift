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

    /// The smallest terminal the panel fits in.
    public var minimumSize: TerminalSize { Self.size(of: panel(scale: 1)) }

    /// The whole screen, top line first: the panel at the largest scale that fits, centred;
    /// in a terminal smaller than `minimumSize`, a request to enlarge it.
    public func lines() -> [String] {
        let eventLines = events.map { styled($0, ANSI.dim) }
        let eventBlock = eventLines.isEmpty ? [] : [""] + eventLines
        let scales = (1...Self.maxScale).reversed()
        var panel = scales.lazy.map { self.panel(scale: $0) + eventBlock }.first { self.size.fits(Self.size(of: $0)) }
        if panel == nil, let smaller = scales.lazy.map({ self.panel(scale: $0) }).first(where: { self.size.fits(Self.size(of: $0)) }) {
            // No room for every event: as many of the newest as fit.
            let room = size.rows - smaller.count
            panel = smaller + (room >= 2 && !eventLines.isEmpty ? [""] + eventLines.suffix(room - 1) : [])
        }
        guard let panel else { return tooSmall() }
        let panelSize = Self.size(of: panel)
        let left = String(repeating: " ", count: (size.columns - panelSize.columns) / 2 + Self.margin)
        let top = Array(repeating: "", count: (size.rows - panelSize.rows) / 2)
        return top + panel.map { $0.isEmpty ? $0 : left + $0 }
    }

    /// The panel, without margins, its digits drawn at `scale`.
    func panel(scale: Int) -> [String] {
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
        lines.append("buzzer  " + (buzzer ? styled("BZZT", ANSI.colour(93, bold: true)) : styled("----", ANSI.dim))
            + "      sound  " + (sound.map { styled("♪ " + TerminalEventLog.soundText($0), ANSI.colour(96, bold: true)) }
                ?? styled("(silent)", ANSI.dim)))
        lines.append(status)
        lines.append("")
        lines.append(styled("s/space  start       S  hold start 2.2 s     ←/→ + -  knob", ANSI.dim))
        lines.append(styled("d/enter  dismiss     D  hold dismiss 2.2 s   q/Ctrl-C quit    Ctrl-L redraw", ANSI.dim))
        return lines
    }

    /// What a terminal too small for the panel shows: the size it needs, in lines that fit.
    private func tooSmall() -> [String] {
        let needed = minimumSize
        let message = "GymTimer: enlarge the terminal to at least \(needed) (it is \(size)); q quits"
        return Self.wrap(message, width: max(1, size.columns)).prefix(max(1, size.rows)).map { $0 }
    }

    /// The columns and rows `lines` take on a terminal, margins included.
    static func size(of lines: [String]) -> TerminalSize {
        TerminalSize(columns: (lines.map(visibleWidth).max() ?? 0) + 2 * margin, rows: lines.count)
    }

    /// How many columns `line` takes: its characters, less the escape sequences.
    static func visibleWidth(_ line: String) -> Int {
        var width = 0
        var inEscape = false
        for scalar in line.unicodeScalars {
            if inEscape {
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                width += 1
            }
        }
        return width
    }

    /// `text` broken at spaces into lines of at most `width` columns (longer words cut).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            var word = Substring(word)
            while word.count > width {
                if !line.isEmpty { lines.append(line); line = "" }
                lines.append(String(word.prefix(width)))
                word = word.dropFirst(width)
            }
            if line.isEmpty { line = String(word) } else if line.count + 1 + word.count <= width { line += " " + word } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
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
