import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerHardware

/// Opens `HardwareKiosk`'s devices from `[hardware]` one kind at a time, remembering each GPIO
/// line it opened: the first device that cannot be had releases them all and is thrown as one
/// `KioskWiringError` naming its role and config key.
final class HardwareOpening {
    let settings: HardwareSettings
    let opener: DeviceOpener
    let chip: any GPIOChip
    /// Every line opened so far, released if a later device fails (and by the kiosk's shut-down).
    private(set) var lines: [any GPIOLine] = []

    init(settings: HardwareSettings, opener: DeviceOpener) throws(KioskWiringError) {
        self.settings = settings
        self.opener = opener
        do {
            chip = try opener.chip(settings.chip)
        } catch {
            throw KioskWiringError(role: "GPIO chip ([hardware] chip)", error: error)
        }
    }

    /// `open`'s device, or every line opened so far released and `role` thrown.
    func attempt<T>(_ role: String, _ open: () throws(HALError) -> T) throws(KioskWiringError) -> T {
        do {
            return try open()
        } catch {
            for line in lines { line.release() }
            lines = []
            throw KioskWiringError(role: role, error: error)
        }
    }

    /// The buttons and the knob by the job each does (the knob's switch only when wired).
    func inputs() throws(KioskWiringError) -> [InputRole: any GPIOEventInput] {
        let wiring = settings.lines
        var wanted: [(LineSpec, InputRole, String, String)] = [
            (wiring.start, .start, "start button", "start"), (wiring.dismiss, .dismiss, "dismiss button", "dismiss"),
            (wiring.encoderA, .encoderA, "knob A", "encoder_a"), (wiring.encoderB, .encoderB, "knob B", "encoder_b"),
        ]
        if let spec = wiring.encoderSwitch { wanted.append((spec, .encoderSwitch, "knob switch", "encoder_switch")) }
        let bias: GPIOBias = switch settings.bias {
        case .pullUp: .pullUp
        case .pullDown: .pullDown
        case .none: .disabled
        }
        var roles: [InputRole: any GPIOEventInput] = [:]
        for (spec, role, what, key) in wanted {
            let line = try attempt("\(what) ([hardware.lines] \(key))") { () throws(HALError) in
                try chip.input(HardwareKiosk.id(spec), role: role.lineName, activeLow: settings.buttonsActiveLow, bias: bias)
            }
            lines.append(line)
            roles[role] = line
        }
        return roles
    }

    /// One output line, low until written.
    func output(_ spec: LineSpec, _ role: String, _ what: String, key: String) throws(KioskWiringError) -> any GPIOOutput {
        let line = try attempt("\(what) ([hardware.lines] \(key))") { () throws(HALError) in
            try chip.output(HardwareKiosk.id(spec), role: role, activeLow: false, initial: false)
        }
        lines.append(line)
        return line
    }

    /// The buzzer: an active one on a GPIO line, or a passive one on a PWM channel.
    func buzzer() throws(KioskWiringError) -> SelfTest<ContinuousClock>.Output {
        switch settings.buzzer {
        case .active:
            let line = try output(settings.lines.buzzer, "buzzer", "buzzer", key: "buzzer")
            return .init(name: "buzzer", wiring: line.location, line: line)
        case .pwm(let pwmChip, let channel, let frequencyHz):
            let pwm = try attempt("PWM buzzer ([hardware.buzzer] pwm_chip, pwm_channel)") { () throws(HALError) in
                try opener.pwm(pwmChip, channel, frequencyHz)
            }
            return .init(name: "buzzer", wiring: pwm.location, line: pwm.output)
        }
    }

    /// The five status LEDs, in the order the self-test lights them.
    func leds() throws(KioskWiringError) -> [(led: StatusLED, output: SelfTest<ContinuousClock>.Output)] {
        let wiring = settings.lines
        let specs: [(StatusLED, LineSpec)] = [
            (.ready, wiring.ledReady), (.rest, wiring.ledRest), (.alarm, wiring.ledAlarm), (.low, wiring.ledLow), (.high, wiring.ledHigh),
        ]
        var leds: [(led: StatusLED, output: SelfTest<ContinuousClock>.Output)] = []
        for (led, spec) in specs {
            let line = try output(spec, "led-\(led.rawValue)", "\(led.rawValue) LED", key: "led_\(led.rawValue)")
            leds.append((led, .init(name: led.rawValue, wiring: line.location, line: line)))
        }
        return leds
    }

    /// The display on its lines or bus, and what it is, for messages.
    func display() throws(KioskWiringError) -> (display: any SegmentDisplay, description: String) {
        switch settings.display.kind {
        case .tm1637(let clk, let dio):
            let clock = try attempt("TM1637 clock ([hardware.display] clk)") { () throws(HALError) in
                try chip.openDrain(HardwareKiosk.id(clk), role: "tm1637-clk")
            }
            lines.append(clock)
            let data = try attempt("TM1637 data ([hardware.display] dio)") { () throws(HALError) in
                try chip.openDrain(HardwareKiosk.id(dio), role: "tm1637-dio")
            }
            lines.append(data)
            let display = TM1637Display(clock: clock, data: data, delay: { MonotonicTime.spin(for: $0) })
            return (display, "TM1637 on CLK \(clock.location), DIO \(data.location)")
        case .ht16k33(let bus, let address):
            let i2c = try attempt("HT16K33 display ([hardware.display] i2c_bus)") { () throws(HALError) in try opener.i2c(bus) }
            return (HT16K33Display(bus: i2c, address: UInt8(address)), "HT16K33 at 0x\(String(address, radix: 16)) on \(i2c.name)")
        case .max7219(let path):
            let spi = try attempt("MAX7219 display ([hardware.display] spi_device)") { () throws(HALError) in try opener.spi(path) }
            return (MAX7219Display(device: spi), "MAX7219 on \(path)")
        case .none:
            return (NoDisplay(), "no display")
        }
    }

    /// The card reader's taps when `[hardware] nfc` names one (its own thread asks it).
    func cardReader() throws(KioskWiringError) -> CardTapSource? {
        guard let address = settings.nfc else { return nil }
        let open = opener.cardReader
        return try attempt("NFC reader ([hardware] nfc)") { () throws(HALError) in
            try CardTapSource(name: address.connstring) { () throws(HALError) in try open(address.connstring) }
        }
    }
}
