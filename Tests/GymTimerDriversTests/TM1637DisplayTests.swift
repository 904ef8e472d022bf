import GymTimerHAL
import GymTimerSimulation
import Testing
@testable import GymTimerDrivers

@Suite struct TM1637DisplayTests {
    let chip = SimulatedTM1637()
    var display: TM1637Display { TM1637Display(clock: chip.clock, data: chip.data) }

    @Test func showsDigitsAndColon() throws {
        let frame = SegmentFrame(digits: SevenSegmentFont.render("0130"), colon: true)
        try display.show(frame)
        #expect(chip.frame.text == "0130")
        #expect(chip.frame.colon)
        #expect(chip.isOn)
        #expect(chip.brightness == 7)
        #expect(chip.shown == chip.frame)
        #expect(chip.violations.isEmpty)
        #expect(chip.transactions == [[0x40], [0xC0, 0x3F, 0x86, 0x4F, 0x3F], [0x8F]])
    }

    @Test func colonOffClearsTheSecondDigitsPoint() throws {
        try display.show(SegmentFrame(digits: [0x50, (0x79 | 0x80) as UInt8, 0x6D, 0x78], colon: false))
        #expect(chip.frame.text == "rE5t", "S and 5 share a shape")
        #expect(!chip.frame.colon)
        #expect(chip.ram[1] == 0x79)
    }

    @Test func brightnessMapsToEightSteps() throws {
        let display = display
        try display.setBrightness(0)
        #expect(chip.transactions.isEmpty, "nothing lit before the first frame")
        try display.show(.dark)
        #expect(chip.brightness == 0)
        for (level, step) in [(1.0, 7), (0.5, 4), (0.2, 1), (-3, 0), (.nan, 0), (9, 7)] {
            try display.setBrightness(level)
            #expect(chip.brightness == step, "level \(level)")
            #expect(chip.isOn)
        }
    }

    @Test func missingAcknowledgeThrowsAndRecovers() throws {
        let display = display
        chip.acknowledges = false
        #expect(throws: HALError.noAcknowledge(device: display.name, byte: 0x40)) {
            try display.show(.allLit)
        }
        #expect(!chip.isOn)
        chip.acknowledges = true
        try display.show(SegmentFrame(digits: SevenSegmentFont.render("Go  "), colon: false))
        #expect(chip.shown.text == "Go  ")
    }

    @Test func framesRecordOnlyChanges() throws {
        var seen: [SegmentFrame] = []
        chip.onFrame = { seen.append($0) }
        let display = display
        let one = SegmentFrame(digits: SevenSegmentFont.render("0100"), colon: true)
        try display.show(one)
        try display.show(one)
        try display.setBrightness(0.1)
        #expect(seen == [one.normalizedForColon])
        #expect(chip.frames == seen)
    }

    @Test func waitsHalfAPeriodBetweenLineChanges() throws {
        var waits: [Duration] = []
        let display = TM1637Display(clock: chip.clock, data: chip.data) { waits.append($0) }
        try display.show(.dark)
        #expect(!waits.isEmpty)
        #expect(waits.allSatisfy { $0 == TM1637Display.halfPeriod })
    }
}

extension SegmentFrame {
    /// How a frame reads back from a module whose colon is the second digit's point.
    var normalizedForColon: SegmentFrame {
        var copy = self
        copy.digits[1] &= 0x7F
        return copy
    }
}

/// The simulated chip itself: a sender with the wrong bit order or timing is not understood.
@Suite struct SimulatedTM1637Tests {
    /// Bit-bangs `byte` most significant bit first (the I2C habit, wrong for the TM1637).
    func sendMSBFirst(_ byte: UInt8, clock: some OpenDrainLine, data: some OpenDrainLine) throws {
        for bit in (0..<8).reversed() {
            try data.write((byte >> bit) & 1 == 1)
            try clock.write(true)
            try clock.write(false)
        }
        try data.write(true)
        try clock.write(true)
        #expect(try !data.read(), "the chip acknowledges on the ninth clock")
        try clock.write(false)
    }

    @Test func msbFirstIsReadReversed() throws {
        let chip = SimulatedTM1637()
        let (clock, data) = (chip.clock, chip.data)
        try data.write(false)  // start: DIO falls while CLK high
        try clock.write(false)
        try sendMSBFirst(0x40, clock: clock, data: data)
        try data.write(false)
        try clock.write(true)
        try data.write(true)  // stop
        #expect(chip.transactions == [[0x02]])
        #expect(chip.violations == ["0x02 is not a command"])
    }

    @Test func dataChangingWhileClockHighIsAStartOrStop() throws {
        let chip = SimulatedTM1637()
        let (clock, data) = (chip.clock, chip.data)
        try data.write(false)
        try clock.write(false)
        try clock.write(true)
        try data.write(true)  // meant as a 1 bit, read as stop
        #expect(chip.transactions == [[]])
    }
}
