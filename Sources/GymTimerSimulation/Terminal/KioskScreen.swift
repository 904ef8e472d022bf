import GymTimerCore
import GymTimerDrivers

/// The simulated kiosk's front panel as a terminal screen (80×24 is enough): the display drawn
/// large, the status LEDs as dots, the buzzer, the sound playing and the key legend.
/// Callers set the outputs as they change; `update()` gives the escape codes that rewrite only
/// the lines that differ from what was last drawn, so nothing flickers.
public final class KioskScreen {
    public var frame = SegmentFrame.dark
    public var leds: [StatusLED: Bool] = [:]
    public var buzzer = false
    public var sound: String?
    /// One line under the panel: what was recorded, a device fault.
    public var status = ""
    /// One line under the title: the mode and what it is doing (a program's name, its round and
    /// score so far: `program Tabata: round 3 of 8`).
    public var mode = ""
    /// Colour codes on (a terminal) or off (tests, plain captures).
    public let colour: Bool
    /// The lines on the terminal now, nil before the first draw.
    private var shown: [String]?

    public init(colour: Bool = true) {
        self.colour = colour
    }

    static let indent = "  "
    static let boxWidth = SegmentArt.width + 4

    /// The whole screen, top line first.
    public func lines() -> [String] {
        let indent = Self.indent
        let rule = String(repeating: "─", count: Self.boxWidth)
        let empty = String(repeating: " ", count: Self.boxWidth)
        var lines = [indent + styled("GymTimer — simulated kiosk, real time", ANSI.bold), indent + mode]
        lines.append(indent + "┌" + rule + "┐")
        lines.append(indent + "│" + empty + "│")
        for art in SegmentArt.lines(for: frame, colour: colour) {
            lines.append(indent + "│  " + art + "  │")
        }
        lines.append(indent + "│" + empty + "│")
        lines.append(indent + "└" + rule + "┘")
        lines.append("")
        lines.append(indent + ledLine())
        lines.append("")
        lines.append(indent + "buzzer  " + (buzzer ? styled("BZZT", ANSI.colour(93, bold: true)) : styled("----", ANSI.dim))
            + "      sound  " + (sound.map { styled("♪ " + $0, ANSI.colour(96, bold: true)) } ?? styled("(silent)", ANSI.dim)))
        lines.append(indent + status)
        lines.append("")
        lines.append(indent + styled("s/space  start       S  hold start 2.2 s     ←/→ + -  knob", ANSI.dim))
        lines.append(indent + styled("d/enter  dismiss     D  hold dismiss 2.2 s   q/Ctrl-C quit", ANSI.dim))
        return lines
    }

    /// Escape codes that bring the terminal up to date: a clear and every line the first time,
    /// then only the lines that changed (empty when none did).
    public func update() -> String {
        let next = lines()
        var output = shown == nil ? ANSI.moveTo(row: 1) + ANSI.clearScreen : ""
        for (index, line) in next.enumerated() where shown.map({ index >= $0.count || $0[index] != line }) ?? true {
            output += ANSI.moveTo(row: index + 1) + line + ANSI.clearToEndOfLine
        }
        shown = next
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
