import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerHardware
import GymTimerRuntime
import GymTimerSimulation
import Testing
@testable import GymTimerKiosk

/// The wiring `HardwareKiosk` makes of a config, through a `DeviceOpener` of fakes: which line of
/// which chip each role gets, which display driver on which bus, which buzzer, and the error
/// that names the device and its config key when one cannot be had.
@Suite struct HardwareKioskTests {
    /// Opens through fakes, recording the chip, PWM, I2C and SPI requests.
    final class Opener {
        let chip = FakeGPIOChip(path: "/dev/gpiochip4")
        var chipsOpened: [String] = []
        var pwmOpened: [[Int]] = []
        var i2cOpened: [Int] = []
        var spiOpened: [String] = []
        let ht16k33 = SimulatedHT16K33(address: 0x71)
        let max7219 = SimulatedMAX7219()
        let pwm = FakeGPIOLine(name: "pwm", location: "pwm")

        var devices: DeviceOpener {
            DeviceOpener(
                chip: { (name) throws(HALError) in
                    self.chipsOpened.append(name)
                    return self.chip
                },
                pwm: { (chip, channel, frequency) throws(HALError) in
                    self.pwmOpened.append([chip, channel, frequency])
                    return (self.pwm, "pwmchip\(chip)/pwm\(channel) at \(frequency) Hz")
                },
                i2c: { (bus) throws(HALError) in
                    self.i2cOpened.append(bus)
                    return self.ht16k33
                },
                spi: { (path) throws(HALError) in
                    self.spiOpened.append(path)
                    return self.max7219
                })
        }
    }

    @Test func theDefaultConfigWiresEachRoleToItsLine() throws {
        let opener = Opener()
        let kiosk = try HardwareKiosk(settings: HardwareSettings(chip: "gpiochip4"), opener: opener.devices)
        #expect(opener.chipsOpened == ["gpiochip4"])
        let input = FakeGPIOChip.Request.Kind.input(activeLow: true, bias: .pullUp)
        #expect(opener.chip.requests == [
            .init(line: .name("GPIO17"), role: "start", kind: input),
            .init(line: .name("GPIO27"), role: "dismiss", kind: input),
            .init(line: .name("GPIO22"), role: "encoder-a", kind: input),
            .init(line: .name("GPIO23"), role: "encoder-b", kind: input),
            .init(line: .name("GPIO18"), role: "buzzer", kind: .output),
            .init(line: .name("GPIO5"), role: "led-ready", kind: .output),
            .init(line: .name("GPIO6"), role: "led-rest", kind: .output),
            .init(line: .name("GPIO13"), role: "led-alarm", kind: .output),
            .init(line: .name("GPIO19"), role: "led-low", kind: .output),
            .init(line: .name("GPIO26"), role: "led-high", kind: .output),
            .init(line: .name("GPIO24"), role: "tm1637-clk", kind: .openDrain),
            .init(line: .name("GPIO25"), role: "tm1637-dio", kind: .openDrain),
        ])
        #expect(Set(kiosk.roles.keys) == [.start, .dismiss, .encoderA, .encoderB])
        #expect(kiosk.display is TM1637Display)
        #expect(kiosk.displayDescription == "TM1637 on CLK GPIO24 (/dev/gpiochip4), DIO GPIO25 (/dev/gpiochip4)")
        #expect(opener.pwmOpened.isEmpty && opener.i2cOpened.isEmpty && opener.spiOpened.isEmpty)
    }

    @Test func offsetsBiasAndTheKnobSwitchComeFromTheConfig() throws {
        let opener = Opener()
        var lines = HardwareLines()
        lines.start = .offset(3)
        lines.encoderSwitch = .name("GPIO16")
        let settings = HardwareSettings(buttonsActiveLow: false, bias: .pullDown, lines: lines, display: DisplayHardware(kind: .none))
        let kiosk = try HardwareKiosk(settings: settings, opener: opener.devices)
        let input = FakeGPIOChip.Request.Kind.input(activeLow: false, bias: .pullDown)
        #expect(opener.chip.requests.first == .init(line: .offset(3), role: "start", kind: input))
        #expect(opener.chip.requests.contains(.init(line: .name("GPIO16"), role: "encoder-switch", kind: input)))
        #expect(kiosk.roles[.encoderSwitch] != nil && InputRole.encoderSwitch.button == .start)
        #expect(kiosk.display is NoDisplay && kiosk.displayDescription == "no display")
        #expect(!opener.chip.requests.contains { $0.kind == .openDrain })
    }

    @Test func busDisplaysAndThePWMBuzzerOpenWhatTheConfigNames() throws {
        let opener = Opener()
        let i2c = HardwareSettings(
            display: DisplayHardware(kind: .ht16k33(i2cBus: 3, address: 0x71)), buzzer: .pwm(chip: 1, channel: 2, frequencyHz: 2700))
        let first = try HardwareKiosk(settings: i2c, opener: opener.devices)
        #expect(opener.i2cOpened == [3])
        #expect(first.display is HT16K33Display)
        #expect(first.displayDescription == "HT16K33 at 0x71 on \(opener.ht16k33.name)")
        #expect(opener.pwmOpened == [[1, 2, 2700]])
        #expect(first.buzzer.wiring == "pwmchip1/pwm2 at 2700 Hz")
        #expect(!opener.chip.requests.contains { $0.role == "buzzer" })

        let spi = HardwareSettings(display: DisplayHardware(kind: .max7219(spiDevice: "/dev/spidev1.1")))
        let second = try HardwareKiosk(settings: spi, opener: opener.devices)
        #expect(opener.spiOpened == ["/dev/spidev1.1"])
        #expect(second.display is MAX7219Display && second.displayDescription == "MAX7219 on /dev/spidev1.1")
    }

    @Test func aMissingLineIsNamedWithItsRoleAndKeyAndTheOpenedLinesAreReleased() {
        let opener = Opener()
        opener.chip.missing = [.name("GPIO13")]
        #expect(throws: KioskWiringError(role: "alarm LED ([hardware.lines] led_alarm)", error: .noSuchLine(line: "GPIO13", chip: "/dev/gpiochip4"))) {
            _ = try HardwareKiosk(settings: HardwareSettings(), opener: opener.devices)
        }
        #expect(!opener.chip.lines.isEmpty && opener.chip.lines.allSatisfy { $0.released })
        let error = KioskWiringError(role: "alarm LED ([hardware.lines] led_alarm)", error: .noSuchLine(line: "GPIO13", chip: "/dev/gpiochip4"))
        #expect("\(error)" == "alarm LED ([hardware.lines] led_alarm): no GPIO line 'GPIO13' on /dev/gpiochip4: check the line name in [hardware] (gpioinfo lists them)")
    }

    @Test func aMissingChipOrBusIsNamedWithItsKey() {
        let missing = DeviceOpener(
            chip: { (name) throws(HALError) in throw .noSuchDevice(device: "/dev/\(name)", hint: "enable GPIO") },
            pwm: { (_, _, _) throws(HALError) in throw .noSuchDevice(device: "pwm", hint: "") },
            i2c: { (bus) throws(HALError) in throw .noSuchDevice(device: "/dev/i2c-\(bus)", hint: "enable I2C") },
            spi: { (path) throws(HALError) in throw .noSuchDevice(device: path, hint: "enable SPI") })
        #expect(throws: KioskWiringError(role: "GPIO chip ([hardware] chip)", error: .noSuchDevice(device: "/dev/gpiochip9", hint: "enable GPIO"))) {
            _ = try HardwareKiosk(settings: HardwareSettings(chip: "gpiochip9"), opener: missing)
        }
        let opener = Opener()
        let onlyChip = DeviceOpener(chip: opener.devices.chip, pwm: missing.pwm, i2c: missing.i2c, spi: missing.spi)
        let settings = HardwareSettings(display: DisplayHardware(kind: .ht16k33(i2cBus: 1, address: 0x70)))
        #expect(throws: KioskWiringError(role: "HT16K33 display ([hardware.display] i2c_bus)", error: .noSuchDevice(device: "/dev/i2c-1", hint: "enable I2C"))) {
            _ = try HardwareKiosk(settings: settings, opener: onlyChip)
        }
        #expect(opener.chip.lines.allSatisfy { $0.released })
    }

    @Test func disabledAudioLeavesTheCuesToTheBuzzer() {
        var audio = AudioSettings()
        audio.enabled = false
        let player = KioskAudio.player(audio, kiosk: KioskSettings(), log: { _ in })
        #expect(player is SilentSoundPlayer)
        #expect(!player.isAvailable)
    }

    @Test func devicesHandTheLoopTheButtonsKnobAndOutputs() throws {
        let opener = Opener()
        let kiosk = try HardwareKiosk(settings: HardwareSettings(), opener: opener.devices)
        let devices = kiosk.devices(sources: [], sound: SilentSoundPlayer())
        #expect(Set(devices.inputs.keys) == [.start, .dismiss, .encoderA, .encoderB])
        #expect(devices.inputs[.encoderA]?.name == "encoder-a" && devices.inputs[.encoderB]?.name == "encoder-b")
        #expect(Set(devices.leds.keys) == Set(StatusLED.allCases))
        #expect(devices.buzzer.name == "buzzer")
        kiosk.shutDown()
        #expect(opener.chip.lines.allSatisfy { $0.released })
    }
}
