import GymTimerHAL
import Testing
@testable import GymTimerHardware

/// Line lookup over a chip's names, the path every libgpiod backend takes.
@Suite struct GPIOLineLookupTests {
    /// Like a Raspberry Pi 4's gpiochip0, shortened: named header lines, some unnamed.
    let names: [String?] = ["ID_SDA", "ID_SCL", "GPIO2", nil, "GPIO4", "GPIO17"]

    @Test func findsALineByName() throws {
        #expect(try GPIOLineLookup.offset(of: .name("GPIO17"), in: names, chip: "/dev/gpiochip0") == 5)
        #expect(try GPIOLineLookup.offset(of: .name("GPIO2"), in: names, chip: "/dev/gpiochip0") == 2)
    }

    @Test func unknownNameNamesTheLineAndTheChip() {
        #expect(throws: HALError.noSuchLine(line: "GPIO99", chip: "/dev/gpiochip0")) {
            try GPIOLineLookup.offset(of: .name("GPIO99"), in: names, chip: "/dev/gpiochip0")
        }
        let message = "\(HALError.noSuchLine(line: "GPIO99", chip: "/dev/gpiochip0"))"
        #expect(message.contains("gpioinfo"))
    }

    @Test func namesAreExact() {
        #expect(throws: HALError.noSuchLine(line: "gpio17", chip: "c")) {
            try GPIOLineLookup.offset(of: .name("gpio17"), in: names, chip: "c")
        }
    }

    @Test func offsetsMustBeOnTheChip() throws {
        #expect(try GPIOLineLookup.offset(of: .offset(3), in: names, chip: "c") == 3)
        #expect(throws: HALError.noSuchLine(line: "6", chip: "c")) {
            try GPIOLineLookup.offset(of: .offset(6), in: names, chip: "c")
        }
        #expect(throws: HALError.noSuchLine(line: "-1", chip: "c")) {
            try GPIOLineLookup.offset(of: .offset(-1), in: names, chip: "c")
        }
    }
}
