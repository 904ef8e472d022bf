import GymTimerCore
import GymTimerDrivers
import Testing
@testable import GymTimerSimulation

@Suite struct KioskScreenTests {
    @Test func drawsOneThirtyFromTheSegmentBits() {
        let frame = SegmentFrame(digits: SevenSegmentFont.render("0130"), colon: true)
        #expect(SegmentArt.lines(for: frame) == [
            "  ██████                            ██████        ██████      ",
            "██      ██            ██                  ██    ██      ██    ",
            "██      ██            ██    ██            ██    ██      ██    ",
            "                                    ██████                    ",
            "██      ██            ██    ██            ██    ██      ██    ",
            "██      ██            ██                  ██    ██      ██    ",
            "  ██████                            ██████        ██████      ",
        ])
    }

    @Test func everyLineIsAsWideAsTheDrawing() {
        let lines = SegmentArt.lines(for: .allLit)
        #expect(lines.count == SegmentArt.height)
        #expect(lines.allSatisfy { $0.count == SegmentArt.width })
    }

    @Test func theColonAndDecimalPointsComeFromTheirOwnBits() {
        let lines = SegmentArt.lines(for: SegmentFrame(digits: [0x80, 0, 0, 0x80], colon: false))
        #expect(lines.dropLast().allSatisfy { $0.allSatisfy { $0 == " " } })
        #expect(lines.last == "           ██" + String(repeating: " ", count: 46) + "██ ")
    }

    @Test func colourMarksLitAndDarkSegmentsOnlyWhereTheyChange() {
        let line = SegmentArt.lines(for: SegmentFrame(digits: [0x01, 0, 0, 0], colon: false), colour: true)[0]
        #expect(line.hasPrefix("  " + ANSI.litSegment + "██████        " + ANSI.darkSegment + "░░░░░░"))
        #expect(line.hasSuffix(ANSI.reset))
    }

    @Test func updateRewritesOnlyTheLinesThatChanged() {
        let screen = KioskScreen(colour: false)
        let first = screen.update()
        #expect(first.hasPrefix(ANSI.moveTo(row: 1) + ANSI.clearScreen))
        #expect(screen.update() == "")
        screen.buzzer = true
        let buzzerRow = screen.lines().firstIndex { $0.contains("BZZT") }! + 1
        #expect(screen.update() == ANSI.moveTo(row: buzzerRow) + screen.lines()[buzzerRow - 1] + ANSI.clearToEndOfLine)
    }

    @Test func theWholePanelFitsEightyByTwentyFourCentred() {
        let screen = KioskScreen(colour: false)
        screen.frame = .allLit
        screen.leds = [.ready: true]
        screen.sound = "alarm"
        screen.status = "recorded: rest workout, 12 sets (3 this session)"
        #expect(TerminalSize.standard.fits(screen.minimumSize))
        let lines = screen.lines()
        #expect(lines.count <= 24)
        #expect(lines.allSatisfy { $0.count <= 80 })
        let panel = screen.panel(scale: 1)
        let width = panel.map(\.count).max()!
        let left = String(repeating: " ", count: (80 - width) / 2)
        let top = (24 - panel.count) / 2
        #expect(lines.count == top + panel.count)
        #expect(lines[top] == left + "GymTimer — simulated kiosk, real time")
        #expect(lines.contains(left + "● ready    ○ rest    ○ alarm    ○ low    ○ high"))
        #expect(lines.contains(left + "buzzer  ----      sound  ♪ alarm"))
        screen.status = "program Tabata: round 3 of 8"
        #expect(screen.lines().contains(left + "program Tabata: round 3 of 8"), "the status line sits under the sound")
    }

    @Test func aBigTerminalGetsBiggerDigitsStillCentred() {
        let screen = KioskScreen(colour: false)
        screen.frame = SegmentFrame(digits: SevenSegmentFont.render("0130"), colon: true)
        screen.size = TerminalSize(columns: 250, rows: 80)
        let lines = screen.lines()
        let art = SegmentArt.lines(for: screen.frame, scale: 3)
        #expect(art.count == 21 && art.allSatisfy { $0.count == SegmentArt.width * 3 })
        let box = lines.firstIndex { $0.contains("┌") }!
        #expect(lines[(box + 2)...].prefix(art.count).map { $0.trimmingPrefixSpaces() } == art.map { "│  " + $0 + "  │" })
        let margin = lines[box].prefix { $0 == " " }.count
        let boxWidth = SegmentArt.width * 3 + 6
        #expect(abs((250 - boxWidth) - 2 * margin) <= 1)
        #expect(lines.allSatisfy { $0.count <= 250 } && lines.count <= 80)
        // Each cell becomes 3×3: the first art row is the zero's top bar, three times over.
        #expect(art[0] == art[1] && art[1] == art[2] && art[0].hasPrefix("      ██████████████████      "))
    }

    @Test func aTerminalTooSmallSaysHowBigItMustBe() {
        let screen = KioskScreen(colour: false)
        screen.size = TerminalSize(columns: 30, rows: 10)
        let needed = screen.minimumSize
        let lines = screen.lines()
        #expect(lines.allSatisfy { $0.count <= 30 } && lines.count <= 10)
        #expect(lines.joined(separator: " ") == "GymTimer: enlarge the terminal to at least \(needed) (it is 30×10); q quits")
        screen.size = needed
        #expect(screen.lines().contains { $0.contains("GymTimer — simulated kiosk") })
        screen.size = TerminalSize(columns: needed.columns - 1, rows: needed.rows)
        #expect(screen.lines().first?.hasPrefix("GymTimer: enlarge") == true)
    }

    @Test func aResizeRedrawsEverythingAndClearsWhatIsLeftBelow() {
        let screen = KioskScreen(colour: false)
        _ = screen.update()
        #expect(screen.update() == "")
        screen.size = TerminalSize(columns: 30, rows: 10)
        let small = screen.update()
        #expect(small.hasPrefix(ANSI.moveTo(row: 1) + ANSI.clearScreen))
        screen.size = .standard
        let whole = screen.update()
        #expect(whole.hasPrefix(ANSI.moveTo(row: 1) + ANSI.clearScreen))
        for (row, line) in screen.lines().enumerated() {
            #expect(whole.contains(ANSI.moveTo(row: row + 1) + line + ANSI.clearToEndOfLine))
        }
        // A shorter screen than the one shown wipes the rows below it.
        screen.status = "x"
        screen.invalidate()
        #expect(screen.update().hasPrefix(ANSI.moveTo(row: 1) + ANSI.clearScreen))
    }

    @Test func visibleWidthSkipsEscapeSequences() {
        #expect(TerminalText.width(ANSI.colour(93, bold: true) + "BZZT" + ANSI.reset) == 4)
        #expect(TerminalText.width("● ready") == 7)
        #expect(TerminalText.wrapped("aaa bb cccccccc d", columns: 4) == ["aaa", "bb", "cccc", "cccc", "d"])
    }
}

extension String {
    func trimmingPrefixSpaces() -> String { String(drop { $0 == " " }) }
}
