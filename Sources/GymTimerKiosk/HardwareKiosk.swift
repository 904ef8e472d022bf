import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerHardware
import GymTimerRuntime
import GymTimerSystem

/// The kiosk's devices on a Raspberry Pi, opened from the config's `[hardware]` section: the
/// buttons, knob, buzzer and LEDs as libgpiod lines, the display on its bus. Opening fails with
/// the first device that cannot be had (`KioskWiringError`, one line naming it, its config
/// key and the fix); once
/// open, `shutDown()` blanks the display, silences the buzzer, darkens the LEDs and releases
/// every line, and is what SIGTERM and Ctrl-C lead to.
final class HardwareKiosk {
    let settings: HardwareSettings
    let chip: any GPIOChip
    /// Every requested input, for the waiter to poll.
    let inputs: [any GPIOEventInput]
    /// The inputs by the job they do (the knob's switch, when fitted, is another start button).
    let roles: [InputRole: any GPIOEventInput]
    let encoder: (a: any GPIOEventInput, b: any GPIOEventInput)
    let display: any SegmentDisplay
    /// What the display is, for messages.
    let displayDescription: String
    let buzzer: SelfTest<ContinuousClock>.Output
    let leds: [(led: StatusLED, output: SelfTest<ContinuousClock>.Output)]
    /// The card reader's taps, when `[hardware] nfc` names one: opened and asked on its own
    /// thread, so a reader absent at boot is a logged fault, never a kiosk that does not start.
    let cards: CardTapSource?
    private var lines: [any GPIOLine] = []
    private var isShutDown = false

    /// Opens every device `settings` names through `opener`; the first that fails is thrown
    /// with its role and config key (the lines opened before it are released).
    init(settings: HardwareSettings, opener: DeviceOpener = .system) throws(KioskWiringError) {
        self.settings = settings
        var lines: [any GPIOLine] = []
        func opening<T>(_ role: String, _ open: () throws(HALError) -> T) throws(KioskWiringError) -> T {
            do {
                return try open()
            } catch {
                for line in lines { line.release() }
                throw KioskWiringError(role: role, error: error)
            }
        }
        let chip = try opening("GPIO chip ([hardware] chip)") { () throws(HALError) in try opener.chip(settings.chip) }
        self.chip = chip
        let bias: GPIOBias = switch settings.bias {
        case .pullUp: .pullUp
        case .pullDown: .pullDown
        case .none: .disabled
        }
        func input(_ spec: LineSpec, _ role: InputRole, _ what: String, key: String) throws(KioskWiringError) -> any GPIOEventInput {
            let line = try opening("\(what) ([hardware.lines] \(key))") { () throws(HALError) in
                try chip.input(Self.id(spec), role: role.lineName, activeLow: settings.buttonsActiveLow, bias: bias)
            }
            lines.append(line)
            return line
        }
        func output(_ spec: LineSpec, _ role: String, _ what: String, key: String) throws(KioskWiringError) -> any GPIOOutput {
            let line = try opening("\(what) ([hardware.lines] \(key))") { () throws(HALError) in
                try chip.output(Self.id(spec), role: role, activeLow: false, initial: false)
            }
            lines.append(line)
            return line
        }
        let wiring = settings.lines
        var roles: [InputRole: any GPIOEventInput] = [
            .start: try input(wiring.start, .start, "start button", key: "start"),
            .dismiss: try input(wiring.dismiss, .dismiss, "dismiss button", key: "dismiss"),
        ]
        let a = try input(wiring.encoderA, .encoderA, "knob A", key: "encoder_a")
        let b = try input(wiring.encoderB, .encoderB, "knob B", key: "encoder_b")
        (roles[.encoderA], roles[.encoderB]) = (a, b)
        if let spec = wiring.encoderSwitch {
            roles[.encoderSwitch] = try input(spec, .encoderSwitch, "knob switch", key: "encoder_switch")
        }
        inputs = InputRole.allCases.compactMap { roles[$0] }
        self.roles = roles
        encoder = (a, b)

        switch settings.buzzer {
        case .active:
            let line = try output(wiring.buzzer, "buzzer", "buzzer", key: "buzzer")
            buzzer = .init(name: "buzzer", wiring: line.location, line: line)
        case .pwm(let pwmChip, let channel, let frequencyHz):
            let pwm = try opening("PWM buzzer ([hardware.buzzer] pwm_chip, pwm_channel)") { () throws(HALError) in
                try opener.pwm(pwmChip, channel, frequencyHz)
            }
            buzzer = .init(name: "buzzer", wiring: pwm.location, line: pwm.output)
        }
        let ledLines: [(StatusLED, LineSpec)] = [
            (.ready, wiring.ledReady), (.rest, wiring.ledRest), (.alarm, wiring.ledAlarm),
            (.low, wiring.ledLow), (.high, wiring.ledHigh),
        ]
        var leds: [(led: StatusLED, output: SelfTest<ContinuousClock>.Output)] = []
        for (led, spec) in ledLines {
            let line = try output(spec, "led-\(led.rawValue)", "\(led.rawValue) LED", key: "led_\(led.rawValue)")
            leds.append((led, .init(name: led.rawValue, wiring: line.location, line: line)))
        }
        self.leds = leds

        switch settings.display.kind {
        case .tm1637(let clk, let dio):
            let clock = try opening("TM1637 clock ([hardware.display] clk)") { () throws(HALError) in
                try chip.openDrain(Self.id(clk), role: "tm1637-clk")
            }
            lines.append(clock)
            let data = try opening("TM1637 data ([hardware.display] dio)") { () throws(HALError) in
                try chip.openDrain(Self.id(dio), role: "tm1637-dio")
            }
            lines.append(data)
            display = TM1637Display(clock: clock, data: data, delay: { MonotonicTime.spin(for: $0) })
            displayDescription = "TM1637 on CLK \(clock.location), DIO \(data.location)"
        case .ht16k33(let bus, let address):
            let i2c = try opening("HT16K33 display ([hardware.display] i2c_bus)") { () throws(HALError) in try opener.i2c(bus) }
            display = HT16K33Display(bus: i2c, address: UInt8(address))
            displayDescription = "HT16K33 at 0x\(String(address, radix: 16)) on \(i2c.name)"
        case .max7219(let path):
            let spi = try opening("MAX7219 display ([hardware.display] spi_device)") { () throws(HALError) in try opener.spi(path) }
            display = MAX7219Display(device: spi)
            displayDescription = "MAX7219 on \(path)"
        case .none:
            display = NoDisplay()
            displayDescription = "no display"
        }
        self.lines = lines
        if let address = settings.nfc {
            let open = opener.cardReader
            cards = try opening("NFC reader ([hardware] nfc)") { () throws(HALError) in
                try CardTapSource(name: address.connstring) { () throws(HALError) in try open(address.connstring) }
            }
        } else {
            cards = nil
        }
    }

    deinit { shutDown() }

    /// The devices for the kiosk's event loop, waiting on the inputs and `sources`.
    func devices(sources: [any PollSource], sound: any SoundPlayer) -> KioskDevices {
        var ledLines: [StatusLED: any DigitalOutput] = [:]
        for (led, output) in leds { ledLines[led] = output.line }
        return KioskDevices(
            waiter: GPIOInputWaiter(inputs: inputs, sources: sources + (cards.map { [$0] } ?? [])),
            inputs: roles.mapValues { $0 as any DigitalInput },
            display: display, buzzer: buzzer.line, leds: ledLines, sound: sound, cards: cards)
    }

    /// The display's brightness from the config (0…100 %), once; a failure is only logged.
    func applyBrightness(_ faults: FaultLog) {
        faults.attempt("display") { try display.setBrightness(Double(settings.display.brightness) / 100) }
    }

    /// Blanks the display, silences the buzzer, darkens the LEDs (each best effort: a dead
    /// device must not stop the others) and releases every line. Idempotent.
    func shutDown() {
        guard !isShutDown else { return }
        isShutDown = true
        cards?.shutdown()
        try? buzzer.line.write(false)
        try? display.show(.dark)
        for (_, output) in leds { try? output.line.write(false) }
        for line in lines { line.release() }
        lines = []
    }

    /// Where the input line doing `role` is wired.
    func location(of role: InputRole) -> String {
        roles[role]?.location ?? role.lineName
    }

    static func id(_ spec: LineSpec) -> GPIOLineID {
        switch spec {
        case .name(let name): return .name(name)
        case .offset(let offset): return .offset(offset)
        }
    }
}
