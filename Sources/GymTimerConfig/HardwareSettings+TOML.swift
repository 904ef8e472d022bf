extension HardwareSettings {
    /// Reads `[hardware]` and its `lines`, `display` and `buzzer` tables, then checks that no GPIO
    /// line is given two jobs (the TM1637's clock and data lines included).
    static func read(from reader: TOMLReader) -> HardwareSettings {
        let defaults = HardwareSettings()
        let settings = HardwareSettings(
            chip: reader.string("chip", default: defaults.chip),
            buttonsActiveLow: reader.bool("buttons_active_low", default: defaults.buttonsActiveLow),
            bias: reader.choice("bias", default: defaults.bias),
            debounceMs: reader.int("debounce_ms", default: defaults.debounceMs, in: 1...30),
            holdMs: reader.int("hold_ms", default: defaults.holdMs, in: 500...10_000),
            lines: reader.table("lines") { HardwareLines.read(from: $0) },
            display: reader.table("display") { DisplayHardware.read(from: $0) },
            buzzer: reader.table("buzzer") { BuzzerHardware.read(from: $0) },
            nfc: reader.nfcReader("nfc")
        )
        var assignments = settings.lines.assignments.map { (key: "hardware.lines.\($0.key)", line: $0.line) }
        if case .tm1637(let clk, let dio) = settings.display.kind {
            assignments += [("hardware.display.clk", clk), ("hardware.display.dio", dio)]
        }
        var firstUse: [String: String] = [:]
        for (key, line) in assignments {
            if let earlier = firstUse[line.identity] {
                reader.report(path: key, value: line.description, "already used by \(earlier)")
            } else {
                firstUse[line.identity] = key
            }
        }
        return settings
    }
}

extension TOMLReader {
    /// `[hardware] nfc`, when given: a reader's address (`NFCReaderAddress`), or a problem.
    func nfcReader(_ key: String) -> NFCReaderAddress? {
        guard value(key) != nil else { return nil }
        let text = string(key, default: "")
        guard !text.isEmpty else { return nil }
        if let problem = NFCReaderAddress.problem(with: text) {
            report(key, value(key), problem)
            return nil
        }
        return NFCReaderAddress(text)
    }
}

extension HardwareLines {
    /// Reads `[hardware.lines]`. Every line but the knob's switch must be wired; a refused value
    /// keeps its default so the duplicate check still sees a complete set.
    static func read(from reader: TOMLReader) -> HardwareLines {
        let defaults = HardwareLines()
        func required(_ key: String, _ defaultLine: LineSpec) -> LineSpec {
            if let line = reader.line(key, default: defaultLine) { return line }
            if reader.isValid(key) {
                reader.report(key, reader.value(key), "must be a line name like \"GPIO17\" or an offset like 17")
            }
            return defaultLine
        }
        return HardwareLines(
            start: required("start", defaults.start),
            dismiss: required("dismiss", defaults.dismiss),
            encoderA: required("encoder_a", defaults.encoderA),
            encoderB: required("encoder_b", defaults.encoderB),
            encoderSwitch: reader.line("encoder_switch", default: defaults.encoderSwitch),
            buzzer: required("buzzer", defaults.buzzer),
            ledReady: required("led_ready", defaults.ledReady),
            ledRest: required("led_rest", defaults.ledRest),
            ledAlarm: required("led_alarm", defaults.ledAlarm),
            ledLow: required("led_low", defaults.ledLow),
            ledHigh: required("led_high", defaults.ledHigh)
        )
    }
}

extension DisplayHardware {
    /// The values of `hardware.display.type`.
    enum TypeName: String, CaseIterable {
        case tm1637, ht16k33, max7219, none
    }

    /// Reads `[hardware.display]`. Every bus key may be present whatever the type (so one file can
    /// keep the settings of several boards); only the chosen type's keys must be usable.
    static func read(from reader: TOMLReader) -> DisplayHardware {
        let type = reader.choice("type", default: TypeName.tm1637)
        let clk = reader.line("clk", default: .name("GPIO24"))
        let dio = reader.line("dio", default: .name("GPIO25"))
        let i2cBus = reader.int("i2c_bus", default: 1, in: 0...Int.max)
        let address = reader.int("address", default: 0x70, in: 0x70...0x77, format: { "0x" + String($0, radix: 16) })
        let spiDevice = reader.string("spi_device", default: "/dev/spidev0.0", allowEmpty: true)
        let brightness = reader.int("brightness", default: 80, in: 0...100)

        /// Reports `key` as required by the chosen type when it was given empty.
        func require<T>(_ value: T?, _ key: String) -> T? {
            if value == nil, reader.isValid(key), reader.isValid("type") {
                reader.report(key, nil, "required when \(reader.keyPath("type")) = \(TOMLText.quote(type.rawValue))")
            }
            return value
        }
        let kind: Kind
        switch type {
        case .tm1637:
            let clk = require(clk, "clk"), dio = require(dio, "dio")
            if let clk, let dio {
                kind = .tm1637(clk: clk, dio: dio)
            } else {
                kind = .none
            }
        case .ht16k33:
            kind = .ht16k33(i2cBus: i2cBus, address: address)
        case .max7219:
            if let spiDevice = require(spiDevice.isEmpty ? nil : spiDevice, "spi_device") {
                kind = .max7219(spiDevice: spiDevice)
            } else {
                kind = .none
            }
        case .none:
            kind = .none
        }
        return DisplayHardware(kind: kind, brightness: brightness)
    }
}

extension BuzzerHardware {
    /// The values of `hardware.buzzer.type`.
    enum TypeName: String, CaseIterable {
        case active, pwm
    }

    /// Reads `[hardware.buzzer]`; the PWM keys are checked whatever the type.
    static func read(from reader: TOMLReader) -> BuzzerHardware {
        let type = reader.choice("type", default: TypeName.active)
        let chip = reader.int("pwm_chip", default: 0, in: 0...Int.max)
        let channel = reader.int("pwm_channel", default: 0, in: 0...Int.max)
        let frequencyHz = reader.int("frequency_hz", default: 2700, in: 100...10_000)
        switch type {
        case .active: return .active
        case .pwm: return .pwm(chip: chip, channel: channel, frequencyHz: frequencyHz)
        }
    }
}
