import Foundation
import GymTimerConfig
import GymTimerCore
import Testing

@Suite struct ConfigDefaultsTests {
    @Test func anEmptyFileGivesTheDefaults() throws {
        let configuration = try GymTimerConfiguration.parse("")
        #expect(configuration == .defaults)
    }

    @Test func theDefaultsAreThoseOfConfigMarkdown() {
        let kiosk = GymTimerConfiguration.defaults.kiosk
        #expect(kiosk.startMode == .rest)
        #expect(kiosk.rest == RestSettings(
            defaultSeconds: 90, minSeconds: 15, maxSeconds: 300, stepSeconds: 15, warningSeconds: 3,
            alarmTimeoutSeconds: 30))
        #expect(kiosk.interval == IntervalSettings(
            phaseSeconds: 30, sets: 8, startWith: .low, warningSeconds: 3, announceSeconds: 3))
        #expect(kiosk.workout.presetName == "full-body")
        #expect(kiosk.workout.presets == [.fullBody])
        #expect(kiosk.workout.selectedPreset == .fullBody)
        #expect(WorkoutPreset.fullBody.exercises.count == 8)
        #expect(WorkoutPreset.fullBody.calories == 150)

        let defaults = GymTimerConfiguration.defaults
        #expect(defaults.audio == AudioSettings(
            enabled: true, device: "default", volume: 80, soundsDirectory: nil, speech: true))
        #expect(defaults.history.path == "/var/lib/gymtimer/history.sqlite")
    }

    @Test func theHardwareDefaultsAreTheReferenceWiring() {
        let hardware = GymTimerConfiguration.defaults.hardware
        #expect(hardware.chip == "gpiochip0")
        #expect(hardware.buttonsActiveLow)
        #expect(hardware.bias == .pullUp)
        #expect(hardware.debounceMs == 10)
        #expect(hardware.holdMs == 2000)
        #expect(hardware.lines.assignments.map(\.key) == [
            "start", "dismiss", "encoder_a", "encoder_b", "buzzer", "led_ready", "led_rest", "led_alarm",
            "led_low", "led_high",
        ])
        #expect(hardware.lines.assignments.map(\.line) == [
            .name("GPIO17"), .name("GPIO27"), .name("GPIO22"), .name("GPIO23"), .name("GPIO18"), .name("GPIO5"),
            .name("GPIO6"), .name("GPIO13"), .name("GPIO19"), .name("GPIO26"),
        ])
        #expect(hardware.lines.encoderSwitch == nil)
        #expect(hardware.display == DisplayHardware(
            kind: .tm1637(clk: .name("GPIO24"), dio: .name("GPIO25")), brightness: 80))
        #expect(hardware.buzzer == .active)
    }

    @Test func theConfigMarkdownExampleParsesToTheDefaults() throws {
        #expect(try GymTimerConfiguration.parse(configMarkdownExample) == .defaults)
    }

    @Test func theDocumentedHardwareSectionParsesToTheDefaults() throws {
        #expect(try GymTimerConfiguration.parse(hardwareExample) == .defaults)
        #expect(try GymTimerConfiguration.parse(configMarkdownExample + "\n" + hardwareExample) == .defaults)
    }

    @Test func everyKeyIsRead() throws {
        let configuration = try GymTimerConfiguration.parse("""
            mode = "interval"
            [rest]
            default_seconds = 60
            min_seconds = 10
            max_seconds = 600
            step_seconds = 5
            warning_seconds = 0
            alarm_timeout_seconds = 45
            [interval]
            phase_seconds = 20
            sets = 10
            start_with = "high"
            warning_seconds = 5
            announce_seconds = 4
            [audio]
            enabled = false
            device = "plughw:1,0"
            volume = 55
            sounds_dir = "/etc/gymtimer/sounds"
            speech = false
            [history]
            path = "/tmp/history.sqlite"
            [hardware]
            chip = "/dev/gpiochip4"
            buttons_active_low = false
            bias = "none"
            debounce_ms = 5
            hold_ms = 1500
            [hardware.lines]
            start = 4
            encoder_switch = "GPIO16"
            [hardware.display]
            type = "ht16k33"
            i2c_bus = 3
            address = 0x72
            brightness = 40
            [hardware.buzzer]
            type = "pwm"
            pwm_chip = 2
            pwm_channel = 1
            frequency_hz = 4000
            """)
        #expect(configuration.kiosk == KioskSettings(
            rest: RestSettings(
                defaultSeconds: 60, minSeconds: 10, maxSeconds: 600, stepSeconds: 5, warningSeconds: 0,
                alarmTimeoutSeconds: 45),
            startMode: .interval,
            interval: IntervalSettings(
                phaseSeconds: 20, sets: 10, startWith: .high, warningSeconds: 5, announceSeconds: 4)))
        #expect(configuration.audio == AudioSettings(
            enabled: false, device: "plughw:1,0", volume: 55, soundsDirectory: "/etc/gymtimer/sounds", speech: false))
        #expect(configuration.history.path == "/tmp/history.sqlite")
        #expect(configuration.hardware == HardwareSettings(
            chip: "/dev/gpiochip4", buttonsActiveLow: false, bias: .none, debounceMs: 5, holdMs: 1500,
            lines: HardwareLines(start: .offset(4), encoderSwitch: .name("GPIO16")),
            display: DisplayHardware(kind: .ht16k33(i2cBus: 3, address: 0x72), brightness: 40),
            buzzer: .pwm(chip: 2, channel: 1, frequencyHz: 4000)))
    }

    @Test func otherDisplayTypesCarryTheirBus() throws {
        let max7219 = try GymTimerConfiguration.parse("""
            [hardware.display]
            type = "max7219"
            spi_device = "/dev/spidev0.1"
            """)
        #expect(max7219.hardware.display.kind == .max7219(spiDevice: "/dev/spidev0.1"))
        let none = try GymTimerConfiguration.parse("[hardware.display]\ntype = \"none\"\nclk = \"\"")
        #expect(none.hardware.display.kind == .none)
    }

    @Test func anEmptySoundsDirMeansNoOverrides() throws {
        #expect(try GymTimerConfiguration.parse("[audio]\nsounds_dir = \"\"").audio.soundsDirectory == nil)
    }

    @Test func aDefaultDurationTheFileDoesNotSetIsBroughtIntoItsBounds() throws {
        let rest = try GymTimerConfiguration.parse("[rest]\nmax_seconds = 60").kiosk.rest
        #expect(rest.defaultSeconds == 60)
        let interval = try GymTimerConfiguration.parse("[interval]\nphase_seconds = 2").kiosk.interval
        #expect(interval.warningSeconds == 1)
    }

    @Test func loadReadsAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gymtimer-\(UUID()).toml").path
        try "[rest]\nstep_seconds = 30\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try GymTimerConfiguration.load(path: path).kiosk.rest.stepSeconds == 30)
    }

    @Test func loadOfAMissingFileNamesThePath() {
        #expect(throws: ConfigError("cannot read config file /nonexistent/gymtimer.toml: no such file")) {
            try GymTimerConfiguration.load(path: "/nonexistent/gymtimer.toml")
        }
    }

    @Test func loadOfADirectorySaysSo() {
        #expect(throws: ConfigError("cannot read config file /tmp: it is a directory")) {
            try GymTimerConfiguration.load(path: "/tmp")
        }
    }
}

/// The example config shipped in deploy/ must always be valid and equal to the defaults.
@Suite struct ShippedExampleConfigTests {
    @Test func deployExampleIsValidAndMatchesTheDefaults() throws {
        let path = #filePath.replacingOccurrences(of: "Tests/GymTimerConfigTests/ConfigDefaultsTests.swift", with: "deploy/config.example.toml")
        let configuration = try GymTimerConfiguration.load(path: path)
        #expect(configuration.kiosk == GymTimerConfiguration.defaults.kiosk)
        #expect(configuration.hardware == GymTimerConfiguration.defaults.hardware)
    }
}
