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
        let opening = try HardwareOpening(settings: settings, opener: opener)
        chip = opening.chip
        let roles = try opening.inputs()
        self.roles = roles
        inputs = InputRole.allCases.compactMap { roles[$0] }
        guard let a = roles[.encoderA], let b = roles[.encoderB] else { preconditionFailure("inputs() opens both knob lines") }
        encoder = (a, b)
        buzzer = try opening.buzzer()
        leds = try opening.leds()
        (display, displayDescription) = try opening.display()
        cards = try opening.cardReader()
        lines = opening.lines
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
