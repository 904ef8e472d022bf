import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerSimulation
import Testing
@testable import GymTimerRuntime
@testable import GymTimerSimulator

/// The kiosk run with each display chip's real driver over its simulated chip.
@Suite struct SimulatedChipDisplayTests {
    static let kinds: [DisplayHardware.Kind] = [
        .tm1637(clk: .name("GPIO24"), dio: .name("GPIO25")), .ht16k33(i2cBus: 1, address: 0x70),
        .max7219(spiDevice: "/dev/spidev0.0"),
    ]

    func trace(_ text: String, display: DisplayHardware.Kind) throws -> [String] {
        var lines: [String] = []
        let simulation = try ScriptedSimulation(
            script: try ScriptParser().parse(text), settings: KioskSettings(), display: display,
            write: { lines.append($0) })
        try simulation.run()
        return lines
    }

    @Test(arguments: kinds)
    func everyChipGivesThePlainDisplaysTrace(kind: DisplayHardware.Kind) throws {
        // Knob changes, a countdown, the flashing alarm, a restart and the end of a workout.
        let script = "0.5 turn -2\n1 click start\n5 restart\n70 click dismiss\n72 click start\n140 hold dismiss 3\n150 end"
        let plain = try trace(script, display: .none)
        #expect(plain.count > 40)
        #expect(try trace(script, display: kind) == plain)
    }

    @Test(arguments: SimulatedChipDisplay.Chip.allCases)
    func reportsOneCompleteFramePerShow(chip: SimulatedChipDisplay.Chip) throws {
        let display = SimulatedChipDisplay(chip: chip)
        var reported: [String] = []
        display.onFrame = { reported.append($0.description) }
        try display.show(SegmentFrame(digits: SevenSegmentFont.render("0130"), colon: true))
        try display.show(SegmentFrame(digits: SevenSegmentFont.render("0130"), colon: true))
        try display.show(SegmentFrame(digits: SevenSegmentFont.render("0129"), colon: false))
        #expect(reported == ["01:30", "0129"])
        #expect(display.frame.description == "0129")
    }

    @Test func theMAX7219PassesThroughPartFramesThatAreNotReported() throws {
        let display = SimulatedChipDisplay(chip: .max7219)
        var reported = 0
        display.onFrame = { _ in reported += 1 }
        try display.show(SegmentFrame(digits: SevenSegmentFont.render("1234"), colon: true))
        let chip = try #require(display.device as? SimulatedMAX7219)
        #expect(chip.frames.count == 4, "one per digit register write")
        #expect(reported == 1)
    }
}
