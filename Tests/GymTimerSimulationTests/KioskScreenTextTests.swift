import GymTimerCore
import Testing
@testable import GymTimerSimulation

/// The terminal kiosk's screen against whatever text reaches it: event texts from the network
/// (a broker's error, a command's reason), a long status, in every terminal size. It used to
/// trap (a negative `String(repeating:count:)`) as soon as one event line was wider than the
/// terminal.
@Suite struct KioskScreenTextTests {
    /// Pieces event texts are made of: words, long words, wide, combining and zero-width
    /// characters, emoji, and the control characters a hostile payload would carry.
    static let pieces = [
        "fleet:", "cannot", "reach", "the", "broker", "mqtt://127.0.0.1:18831", "(connection", "refused)",
        String(repeating: "x", count: 190), "漢字の練習", "ＦＵＬＬ", "🏋️", "👨‍👩‍👧", "e\u{301}", "a\u{20DD}", "\u{200B}",
        "\u{1B}[2J", "\u{1B}]0;title\u{07}", "\u{7}", "\n", "\r", "\t", "\u{9B}31m", "\u{7F}", "\u{202E}gnirts",
        "\u{2028}", "Ⅻ", "—", "“not json”", "", " ", "  ",
    ]

    static func text(_ rng: inout SeededGenerator, maxPieces: Int) -> String {
        (0..<Int.random(in: 0...maxPieces, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }
            .joined(separator: Bool.random(using: &rng) ? " " : "")
    }

    /// No scalar a terminal acts on rather than shows, bar our own escape sequences.
    static func inert(_ line: String, colour: Bool) -> Bool {
        line.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x1B: return colour
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return false
            default: return true
            }
        }
    }

    /// The scalars of `text` but its spaces: what wrapping must keep, in order.
    static func scalars(_ text: String) -> [Unicode.Scalar] { text.unicodeScalars.filter { $0 != " " } }

    @Test func everyLineFitsEveryTerminalWhateverTheTexts() {
        for seed in UInt64(1)...250 {
            var rng = SeededGenerator(seed: seed)
            let colour = seed % 3 == 0
            let screen = KioskScreen(colour: colour)
            screen.size = TerminalSize(columns: Int.random(in: 0...220, using: &rng), rows: Int.random(in: 0...70, using: &rng))
            screen.events = (0..<Int.random(in: 0...5, using: &rng)).map { _ in
                "0:0\(Int.random(in: 0...9, using: &rng)).0  " + Self.text(&rng, maxPieces: 12)
            }
            screen.status = Self.text(&rng, maxPieces: 8)
            screen.sound = Bool.random(using: &rng) ? Self.text(&rng, maxPieces: 4) : nil
            screen.buzzer = Bool.random(using: &rng)
            let lines = screen.lines()
            let context = "seed \(seed), \(screen.size)"
            #expect(lines.count <= max(1, screen.size.rows), "\(context): \(lines.count) rows")
            for line in lines {
                #expect(TerminalText.width(line) <= max(1, screen.size.columns), "\(context): \(line.debugDescription)")
                #expect(Self.inert(line, colour: colour), "\(context): \(line.debugDescription)")
            }
            // Where the panel fits, it is drawn whole, and the newest event is on it when there is a row for it.
            if screen.size.fits(screen.minimumSize) {
                #expect(lines.contains { $0.contains("GymTimer — simulated kiosk") }, "\(context)")
                #expect(lines.contains { $0.contains("q/Ctrl-C quit") }, "\(context)")
                let rows = KioskScreen.eventRows(screen.events.last ?? "", columns: screen.size.columns - 4)
                if let newest = screen.events.last, screen.panel(scale: 1).count + 1 + rows.count <= screen.size.rows {
                    let shown = Self.scalars(lines.map {
                        $0.replacingOccurrences(of: ANSI.dim, with: "").replacingOccurrences(of: ANSI.reset, with: "")
                    }.joined())
                    let expected = Self.scalars(TerminalText.sanitized(newest))
                    #expect(shown.suffix(expected.count) == expected[...], "\(context): the newest event whole")
                }
            }
        }
    }

    @Test func wrappedTextKeepsEveryCharacterInOrder() {
        for seed in UInt64(1)...400 {
            var rng = SeededGenerator(seed: seed)
            let text = TerminalText.sanitized(Self.text(&rng, maxPieces: 16))
            let columns = Int.random(in: 2...90, using: &rng)
            let indent = Int.random(in: 0...10, using: &rng)
            let rows = TerminalText.wrapped(text, columns: columns, indent: indent)
            #expect(rows.allSatisfy { TerminalText.width($0) <= columns }, "seed \(seed): \(rows)")
            #expect(Self.scalars(rows.joined()) == Self.scalars(text), "seed \(seed)")
            let cut = TerminalText.truncated(text, columns: columns)
            #expect(TerminalText.width(cut) <= columns, "seed \(seed): \(cut)")
            #expect(cut == text || (cut.unicodeScalars.last == "…"
                && text.unicodeScalars.starts(with: cut.unicodeScalars.dropLast())), "seed \(seed): \(cut)")
        }
    }

    @Test func widthsAreTheColumnsATerminalGives() {
        #expect(TerminalText.width("abc") == 3)
        #expect(TerminalText.width("漢字") == 4)
        #expect(TerminalText.width("ＡＢ") == 4)
        #expect(TerminalText.width("🏃") == 2)
        #expect(TerminalText.width("🏋") == 1, "not emoji-presentation: one column, as wcwidth says")
        #expect(TerminalText.width("e\u{301}") == 1)
        #expect(TerminalText.width("a\u{200B}b") == 2)
        #expect(TerminalText.width(ANSI.dim + "x" + ANSI.reset) == 1)
        #expect(TerminalText.sanitized("a\u{1B}[2Jb\nc\u{9B}\u{202E}d") == "a\u{FFFD}[2Jb c\u{FFFD}\u{FFFD}d")
        // Cut between characters, never inside one: the accent stays with its letter.
        #expect(TerminalText.truncated("e\u{301}e\u{301}e\u{301}", columns: 3) == "e\u{301}e\u{301}e\u{301}")
        #expect(TerminalText.truncated("e\u{301}e\u{301}e\u{301}", columns: 2) == "e\u{301}…")
        #expect(TerminalText.truncated("漢字漢字", columns: 4) == "漢…")
        #expect(TerminalText.wrapped("0:01.0  漢字漢字漢字", columns: 12, indent: 8) == ["0:01.0", "        漢字", "        漢字", "        漢字"])
    }

    /// The case: a `[fleet]` broker that cannot be reached says so in a line of some
    /// 185 characters, in an 80×24 terminal.
    @Test func aLongFleetErrorAtEightyByTwentyFourIsWrappedUnderItsTime() {
        let screen = KioskScreen(colour: false)
        let message = "fleet: cannot connect to mqtt://127.0.0.1:18831: connection refused (is the broker running and "
            + "listening there? check the address, the port and the firewall); retrying in 1 s, then less often"
        screen.events = ["0:00.0  fleet: station rack-1, broker mqtt://127.0.0.1:18831", "0:00.1  " + message]
        let lines = screen.lines()
        #expect(lines.count <= 24 && lines.allSatisfy { TerminalText.width($0) <= 80 })
        // Two rows are left under the panel: the newest event's first two, cut with `…`.
        let rows = lines.suffix(2).map { $0.trimmingPrefixSpaces() }
        #expect(rows[0].hasPrefix("0:00.1  fleet: cannot connect"))
        #expect(lines.last!.hasPrefix(lines[lines.count - 2].prefix { $0 == " " } + String(repeating: " ", count: 8)))
        #expect(rows[1].hasSuffix("…"))
        // With rows for it all, the whole message, wrapped under its text.
        screen.size = TerminalSize(columns: 80, rows: 30)
        let whole = screen.lines()
        #expect(whole.count <= 30 && whole.allSatisfy { TerminalText.width($0) <= 80 })
        let start = whole.lastIndex { $0.contains("0:00.1  fleet") }!
        #expect(whole[(start + 1)...].count == 2)
        #expect(whole[start...].map { $0.trimmingPrefixSpaces() }.joined(separator: " ") == "0:00.1  " + message)
    }

    /// A long program name used to make the status line set the panel's width, so 80×24 asked
    /// for a bigger terminal; now the status is cut to fit and only the drawing sets the size.
    @Test func aLongStatusIsCutNotAReasonToAskForABiggerTerminal() {
        let screen = KioskScreen(colour: false)
        screen.status = "program " + String(repeating: "Very long program name ", count: 6) + ": round 3 of 8 · station rack-1"
        #expect(screen.minimumSize.columns <= 80 && screen.minimumSize.rows <= 24)
        let lines = screen.lines()
        #expect(lines.contains { $0.contains("GymTimer — simulated kiosk") })
        let status = lines.first { $0.contains("program Very long") }
        #expect(status.map { TerminalText.width($0) <= 80 && $0.hasSuffix("…") } == true)
    }
}
