import GymTimerHAL
import GymTimerSimulation
import Testing
@testable import GymTimerDrivers

@Suite struct HT16K33DisplayTests {
    let chip = SimulatedHT16K33()
    let clock = SegmentFrame(digits: SevenSegmentFont.render("0130"), colon: true)

    @Test func setsUpOnFirstUseAndShowsDigitsAndColon() throws {
        let display = HT16K33Display(bus: chip)
        try display.show(clock)
        #expect(chip.oscillatorOn)
        #expect(chip.isOn)
        #expect(chip.blink == 0)
        #expect(chip.dimming == 15)
        #expect(chip.frame == clock)
        #expect(chip.shown.text == "0130")
        #expect(chip.violations.isEmpty)
        #expect(chip.frames == [clock], "no stale or half-written frame was ever lit")
        #expect(chip.transactions.last == [0x00, 0x3F, 0, 0x06, 0, 0x02, 0, 0x4F, 0, 0x3F, 0])
    }

    @Test func setsUpOnlyOnce() throws {
        let display = HT16K33Display(bus: chip)
        try display.start()
        #expect(chip.isOn)
        #expect(chip.shown == .dark)
        try display.show(clock)
        try display.show(.dark)
        #expect(chip.transactions.filter { $0 == [0x21] }.count == 1)
    }

    @Test func brightnessMapsToSixteenSteps() throws {
        let display = HT16K33Display(bus: chip)
        for (level, step) in [(0.0, 0), (1.0, 15), (0.5, 8), (0.1, 2), (.nan, 0), (2, 15)] {
            try display.setBrightness(level)
            #expect(chip.dimming == step, "level \(level)")
        }
        #expect(chip.isOn, "the first setBrightness set the chip up")
    }

    @Test func failedWriteThrowsAndAReconnectedBackpackIsSetUpAgain() throws {
        let display = HT16K33Display(bus: chip)
        try display.setBrightness(0.4)
        try display.show(clock)
        chip.failWrites = true
        chip.reset()  // unplugged: the chip loses power
        #expect(throws: HALError.io(device: chip.name, operation: "write to 0x70", errno: 121)) {
            try display.show(.dark)
        }
        chip.failWrites = false
        let rest = SegmentFrame(digits: SevenSegmentFont.render("0045"), colon: true)
        try display.show(rest)
        #expect(chip.oscillatorOn)
        #expect(chip.isOn)
        #expect(chip.dimming == 6, "the brightness survives the reconnect")
        #expect(chip.shown == rest)
    }

    @Test func wrongAddressIsNotAcknowledged() {
        let display = HT16K33Display(bus: chip, address: 0x71)
        #expect(throws: HALError.io(device: chip.name, operation: "write to 0x71", errno: 121)) {
            try display.show(clock)
        }
        #expect(chip.transactions.isEmpty)
    }

    @Test func onFrameSeesEachChange() throws {
        var seen: [String] = []
        chip.onFrame = { seen.append($0.description) }
        let display = HT16K33Display(bus: chip)
        try display.show(clock)
        try display.show(clock)
        try display.show(SegmentFrame(digits: SevenSegmentFont.render("0129"), colon: true))
        #expect(seen == ["01:30", "01:29"])
    }
}
