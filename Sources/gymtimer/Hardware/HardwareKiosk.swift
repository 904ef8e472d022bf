import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerHardware
import GymTimerRuntime

/// The kiosk's devices on a Raspberry Pi, opened from the config's `[hardware]` section: the
/// buttons, knob, buzzer and LEDs as libgpiod lines, the display on its bus. Opening fails with
/// the first device that cannot be had (`HALError`, one line naming it and the fix); once
/// open, `shutDown()` blanks the display, silences the buzzer, darkens the LEDs and releases
/// every line, and is what SIGTERM and Ctrl-C lead to.
final class HardwareKiosk {
    /// Line names the runtime knows the inputs by.
    static let encoderA = "encoder-a", encoderB = "encoder-b", encoderSwitch = "encoder-switch"

    let settings: HardwareSettings
    let chip: any GPIOChip
    /// Every requested input, for the waiter to poll.
    let inputs: [any GPIOEventInput]
    /// Which input line is which button (the knob's switch is another start button).
    let buttons: [String: ControlButton]
    let encoder: (a: any GPIOEventInput, b: any GPIOEventInput)
    let display: any SegmentDisplay
    /// What the display is, for messages.
    let displayDescription: String
    let buzzer: SelfTest<ContinuousClock>.Output
    let leds: [(led: StatusLED, output: SelfTest<ContinuousClock>.Output)]
    private var lines: [any GPIOLine]
    private var isShutDown = false

    init(settings: HardwareSettings) throws(HALError) {
        self.settings = settings
        let chip = try GPIOChips.open(settings.chip)
        self.chip = chip
        var lines: [any GPIOLine] = []
        let bias: GPIOBias = switch settings.bias {
        case .pullUp: .pullUp
        case .pullDown: .pullDown
        case .none: .disabled
        }
        func input(_ spec: LineSpec, _ role: String) throws(HALError) -> any GPIOEventInput {
            let line = try chip.input(Self.id(spec), role: role, activeLow: settings.buttonsActiveLow, bias: bias)
            lines.append(line)
            return line
        }
        func output(_ spec: LineSpec, _ role: String) throws(HALError) -> any GPIOOutput {
            let line = try chip.output(Self.id(spec), role: role, activeLow: false, initial: false)
            lines.append(line)
            return line
        }

        let wiring = settings.lines
        var inputs = [try input(wiring.start, "start"), try input(wiring.dismiss, "dismiss")]
        var buttons: [String: ControlButton] = ["start": .start, "dismiss": .dismiss]
        let a = try input(wiring.encoderA, Self.encoderA), b = try input(wiring.encoderB, Self.encoderB)
        inputs += [a, b]
        if let spec = wiring.encoderSwitch {
            inputs.append(try input(spec, Self.encoderSwitch))
            buttons[Self.encoderSwitch] = .start
        }
        self.inputs = inputs
        self.buttons = buttons
        encoder = (a, b)

        switch settings.buzzer {
        case .active:
            let line = try output(wiring.buzzer, "buzzer")
            buzzer = .init(name: "buzzer", wiring: line.location, line: line)
        case .pwm(let pwmChip, let channel, let frequencyHz):
            let pwm = try PWMBuzzerOutput(chip: pwmChip, channel: channel, frequencyHz: frequencyHz)
            buzzer = .init(name: "buzzer", wiring: "\(pwm.channelPath) at \(frequencyHz) Hz", line: pwm)
        }
        let ledLines: [(StatusLED, LineSpec)] = [
            (.ready, wiring.ledReady), (.rest, wiring.ledRest), (.alarm, wiring.ledAlarm),
            (.low, wiring.ledLow), (.high, wiring.ledHigh),
        ]
        var leds: [(led: StatusLED, output: SelfTest<ContinuousClock>.Output)] = []
        for (led, spec) in ledLines {
            let line = try output(spec, "led-\(led.rawValue)")
            leds.append((led, .init(name: led.rawValue, wiring: line.location, line: line)))
        }
        self.leds = leds

        switch settings.display.kind {
        case .tm1637(let clk, let dio):
            let clock = try chip.openDrain(Self.id(clk), role: "tm1637-clk")
            let data = try chip.openDrain(Self.id(dio), role: "tm1637-dio")
            lines += [clock, data]
            display = TM1637Display(clock: clock, data: data, delay: { MonotonicTime.spin(for: $0) })
            displayDescription = "TM1637 on CLK \(clock.location), DIO \(data.location)"
        case .ht16k33(let bus, let address):
            let i2c = try I2CDevBus(bus: bus)
            display = HT16K33Display(bus: i2c, address: UInt8(address))
            displayDescription = "HT16K33 at 0x\(String(address, radix: 16)) on \(i2c.name)"
        case .max7219(let path):
            display = MAX7219Display(device: try SPIDevDevice(path: path))
            displayDescription = "MAX7219 on \(path)"
        case .none:
            display = NoDisplay()
            displayDescription = "no display"
        }
        self.lines = lines
    }

    deinit { shutDown() }

    /// The devices for the kiosk's event loop, waiting on the inputs and `wakeups`.
    func devices(wakeups: [any PollWakeup], sound: any SoundPlayer) -> KioskDevices {
        var ledLines: [StatusLED: any DigitalOutput] = [:]
        for (led, output) in leds { ledLines[led] = output.line }
        return KioskDevices(
            waiter: GPIOInputWaiter(inputs: inputs, wakeups: wakeups), buttons: buttons,
            encoder: (encoder.a, encoder.b), display: display, buzzer: buzzer.line, leds: ledLines, sound: sound,
            buttonLines: Dictionary(uniqueKeysWithValues: inputs.filter { buttons[$0.name] != nil }.map { ($0.name, $0 as any DigitalInput) }))
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
        try? buzzer.line.write(false)
        try? display.show(.dark)
        for (_, output) in leds { try? output.line.write(false) }
        for line in lines { line.release() }
        lines = []
    }

    /// Where the input line known as `name` is wired.
    func location(of name: String) -> String {
        inputs.first { $0.name == name }?.location ?? name
    }

    static func id(_ spec: LineSpec) -> GPIOLineID {
        switch spec {
        case .name(let name): return .name(name)
        case .offset(let offset): return .offset(offset)
        }
    }
}
