import GymTimerHAL
import GymTimerSimulation
import Testing
@testable import GymTimerDrivers

@Suite struct MAX7219DisplayTests {
    let clock = SegmentFrame(digits: SevenSegmentFont.render("0130"), colon: true)

    @Test func setsUpOnFirstUseAndShowsDigitsAndColon() throws {
        let chip = SimulatedMAX7219()
        let display = MAX7219Display(device: chip)
        try display.show(clock)
        #expect(!chip.isShutdown)
        #expect(!chip.displayTest)
        #expect(chip.decodeMode == 0)
        #expect(chip.scanLimit == 3)
        #expect(chip.intensity == 15)
        #expect(chip.shown == clock)
        #expect(chip.shown.text == "0130")
        #expect(chip.violations.isEmpty, "one register per chip-select frame")
        #expect(chip.frames.map(\.description) == ["0   ", "01:  ", "01:3 ", "01:30"], "one register, one digit at a time")
        #expect(Array(chip.digitRegisters.prefix(4)) == [0x7E, (0x30 | 0x80) as UInt8, 0x79, 0x7E])
    }

    @Test func segmentBitsAreMirrored() {
        #expect(MAX7219Display.chipBits(0x01) == 0x40, "a")
        #expect(MAX7219Display.chipBits(0x40) == 0x01, "g")
        #expect(MAX7219Display.chipBits(0x80) == 0x80, "dp")
        #expect(MAX7219Display.chipBits(0x3F) == 0x7E, "0")
        for bits in UInt8.min...UInt8.max {
            #expect(MAX7219Display.segmentBits(MAX7219Display.chipBits(bits)) == bits)
        }
    }

    @Test func digitOrderPicksTheLeftmostRegister() throws {
        let chip = SimulatedMAX7219(digitOrder: .digit0Rightmost)
        try MAX7219Display(device: chip, digitOrder: .digit0Rightmost).show(clock)
        #expect(chip.shown == clock)
        #expect(chip.digitRegisters[3] == 0x7E, "DIG3 is the leftmost digit")
        #expect(chip.digitRegisters[0] == 0x7E)
        #expect(chip.digitRegisters[2] == 0x30 | 0x80, "the colon is on the second digit from the left")

        let mismatched = SimulatedMAX7219(digitOrder: .digit0Leftmost)
        try MAX7219Display(device: mismatched, digitOrder: .digit0Rightmost).show(clock)
        #expect(mismatched.shown.text == "0310", "the wrong order reads backwards")
    }

    @Test func brightnessMapsToSixteenSteps() throws {
        let chip = SimulatedMAX7219()
        let display = MAX7219Display(device: chip)
        for (level, step) in [(0.0, 0), (1.0, 15), (0.5, 8), (0.1, 2), (.nan, 0), (-1, 0)] {
            try display.setBrightness(level)
            #expect(chip.intensity == step, "level \(level)")
        }
        #expect(!chip.isShutdown)
        #expect(chip.shown == .dark, "set-up clears the digits before lighting them")
    }

    @Test func failedWriteThrowsAndTheChipIsSetUpAgain() throws {
        let chip = SimulatedMAX7219()
        let display = MAX7219Display(device: chip)
        try display.show(clock)
        chip.failWrites = true
        #expect(throws: HALError.io(device: chip.name, operation: "write", errno: 5)) {
            try display.show(.dark)
        }
        chip.failWrites = false
        try display.show(.dark)
        #expect(chip.transactions.filter { $0 == [0x0C, 0x01] }.count == 2)
        #expect(chip.shown == .dark)
        #expect(!chip.isShutdown)
    }

    @Test func missingDeviceThrows() {
        let chip = SimulatedMAX7219()
        chip.failOpen = true
        #expect(throws: HALError.noSuchDevice(device: chip.name, hint: "simulated: failOpen is set")) {
            try MAX7219Display(device: chip).show(clock)
        }
    }

    @Test func simulatedChipLatchesOnlyTheLastWordOfAFrame() throws {
        let chip = SimulatedMAX7219()
        try chip.write([0x0C, 0x01, 0x0A, 0x05])
        #expect(chip.isShutdown, "the shutdown word went out on DOUT")
        #expect(chip.intensity == 5)
        #expect(chip.violations.count == 1)
    }

    @Test func displayTestLightsEverything() throws {
        let chip = SimulatedMAX7219()
        try chip.write([0x0F, 0x01])
        #expect(chip.shown == .allLit)
    }
}
