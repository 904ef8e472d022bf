/// The `[hardware.lines]` table: which GPIO line each control, buzzer and LED is wired to.
/// The defaults are the reference wiring on a Raspberry Pi.
public struct HardwareLines: Hashable, Sendable, Codable {
    public var start: LineSpec
    public var dismiss: LineSpec
    public var encoderA: LineSpec
    public var encoderB: LineSpec
    /// The knob's push switch, if fitted; it acts as the start button.
    public var encoderSwitch: LineSpec?
    /// The active buzzer's line (an active buzzer sounds while the line is high).
    public var buzzer: LineSpec
    public var ledReady: LineSpec
    public var ledRest: LineSpec
    public var ledAlarm: LineSpec
    public var ledLow: LineSpec
    public var ledHigh: LineSpec

    public init(
        start: LineSpec = .name("GPIO17"), dismiss: LineSpec = .name("GPIO27"),
        encoderA: LineSpec = .name("GPIO22"), encoderB: LineSpec = .name("GPIO23"), encoderSwitch: LineSpec? = nil,
        buzzer: LineSpec = .name("GPIO18"),
        ledReady: LineSpec = .name("GPIO5"), ledRest: LineSpec = .name("GPIO6"), ledAlarm: LineSpec = .name("GPIO13"),
        ledLow: LineSpec = .name("GPIO19"), ledHigh: LineSpec = .name("GPIO26")
    ) {
        self.start = start
        self.dismiss = dismiss
        self.encoderA = encoderA
        self.encoderB = encoderB
        self.encoderSwitch = encoderSwitch
        self.buzzer = buzzer
        self.ledReady = ledReady
        self.ledRest = ledRest
        self.ledAlarm = ledAlarm
        self.ledLow = ledLow
        self.ledHigh = ledHigh
    }

    /// Each fitted line with its config key, in the order the keys are documented.
    public var assignments: [(key: String, line: LineSpec)] {
        let all: [(String, LineSpec?)] = [
            ("start", start), ("dismiss", dismiss), ("encoder_a", encoderA), ("encoder_b", encoderB),
            ("encoder_switch", encoderSwitch), ("buzzer", buzzer), ("led_ready", ledReady), ("led_rest", ledRest),
            ("led_alarm", ledAlarm), ("led_low", ledLow), ("led_high", ledHigh),
        ]
        return all.compactMap { key, line in line.map { (key, $0) } }
    }
}
