import Glibc
import GymTimerHAL
import Testing
@testable import GymTimerHardware

/// The libgpiod backend's start-up errors, on any Linux machine (no GPIO chip needed).
@Suite struct GPIOChipTests {
    @Test(arguments: ["gpiochip99", "/dev/gpiochip99"])
    func missingChipSaysHowToFindTheRightOne(chip: String) {
        #expect {
            _ = try GPIOChips.open(chip)
        } throws: { error in
            guard case HALError.noSuchDevice(let device, let hint) = error else { return false }
            return device == "/dev/gpiochip99" && hint.contains("gpiodetect")
                && "\(error)".hasPrefix("/dev/gpiochip99 does not exist")
        }
    }

    /// A character device of another kind, a regular file and a directory: each is "no GPIO
    /// chip" (ENODEV) from libgpiod v1 and v2 alike, whatever errno each library sets.
    @Test(arguments: ["/dev/null", "/proc/self/status", "/proc"])
    func fileThatIsNoChipIsRefused(path: String) {
        #expect(throws: HALError.io(device: path, operation: "open GPIO chip", errno: ENODEV)) {
            _ = try GPIOChips.open(path)
        }
    }

    @Test func linesAreNamedByNameAndPlace() {
        #expect(LibgpiodLine.location(name: "GPIO17", chip: "/dev/gpiochip0", offset: 17)
            == "GPIO17 (/dev/gpiochip0 line 17)")
        #expect(LibgpiodLine.location(name: nil, chip: "/dev/gpiochip4", offset: 3) == "/dev/gpiochip4 line 3")
    }

    @Test func forbiddenChipNamesTheGPIOGroup() {
        let error = HALError.lastError(EACCES, device: "/dev/gpiochip0", operation: "open GPIO chip")
        #expect(error == .permissionDenied(device: "/dev/gpiochip0", group: "gpio"))
        #expect("\(error)".contains("usermod -aG gpio"))
    }

    @Test func chipNamesBecomeDevicePaths() {
        #expect(GPIOChips.devicePath(for: "gpiochip0") == "/dev/gpiochip0")
        #expect(GPIOChips.devicePath(for: "/dev/gpiochip4") == "/dev/gpiochip4")
    }

    @Test func busyLineNamesWhoHoldsIt() {
        let error = HALError.lineBusy(line: "GPIO17", chip: "/dev/gpiochip0", consumer: "pigpiod")
        #expect("\(error)" == "GPIO line 'GPIO17' on /dev/gpiochip0 is already in use by 'pigpiod': "
            + "stop that program or pick another line")
    }
}
