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

    @Test func theWholePanelFitsEightyByTwentyFour() {
        let screen = KioskScreen(colour: false)
        screen.frame = .allLit
        screen.leds = [.ready: true]
        screen.sound = "alarm"
        screen.status = "recorded: rest workout, 12 sets (3 this session)"
        let lines = screen.lines()
        #expect(lines.count <= 24)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines.contains("  ● ready    ○ rest    ○ alarm    ○ low    ○ high"))
        #expect(lines.contains("  buzzer  ----      sound  ♪ alarm"))
        screen.mode = "program Tabata: round 3 of 8"
        #expect(screen.lines()[1] == "  program Tabata: round 3 of 8", "the mode line sits under the title")
    }
}
