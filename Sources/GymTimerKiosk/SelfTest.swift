import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerRuntime

/// `gymtimer selftest`: the wiring check a person runs after soldering. It lights the whole
/// display (`8.8.:8.8.`), then an `8` on each digit in turn, each LED in turn, beeps, and then
/// reports every button press, release and hold and every knob detent as it happens, through
/// the same `InputFrontEnd` (debouncers and quadrature decoder) as the kiosk, and the UID of
/// every card held to the NFC reader (when one is fitted), until told to stop.
///
/// Written over the HAL and an injected clock, so it runs the same on libgpiod and in tests.
/// A device that fails is reported on its own line and the check goes on: the point is to see
/// everything that is wrong at once.
public final class SelfTest<C: Clock> where C.Duration == Duration {
    /// An output to light in turn, with where it is wired, for the printed line.
    public struct Output {
        public var name: String
        public var wiring: String
        public var line: any DigitalOutput

        public init(name: String, wiring: String, line: any DigitalOutput) {
            self.name = name
            self.wiring = wiring
            self.line = line
        }
    }

    /// A button input: the job its line does and how to call it in the report.
    public struct Button {
        public var role: InputRole
        public var label: String

        public init(role: InputRole, label: String) {
            self.role = role
            self.label = label
        }
    }

    /// How long each display step and each LED stays lit.
    public var stepLength = Duration.milliseconds(700)
    /// How long the beep lasts.
    public var beepLength = Duration.milliseconds(200)

    private let clock: C
    private let origin: C.Instant
    private let waiter: any InputWaiter
    private let display: any SegmentDisplay
    private let leds: [Output]
    private let buzzer: Output
    private let labels: [InputRole: String]
    private let encoder: (a: any DigitalInput, b: any DigitalInput)?
    private let timing: InputTiming
    private let print: (String) -> Void
    private var input: InputFrontEnd
    private let cards: CardTapSource?

    /// `print` receives each line of the report.
    public init(
        clock: C, waiter: any InputWaiter, display: any SegmentDisplay, leds: [Output], buzzer: Output,
        buttons: [Button], encoder: (a: any DigitalInput, b: any DigitalInput)?,
        timing: InputTiming = InputTiming(), cards: CardTapSource? = nil, print: @escaping (String) -> Void
    ) {
        self.cards = cards
        self.clock = clock
        origin = clock.now
        self.waiter = waiter
        self.display = display
        self.leds = leds
        self.buzzer = buzzer
        self.encoder = encoder
        self.print = print
        self.timing = timing
        var labels: [InputRole: String] = [:]
        for button in buttons { labels[button.role] = button.label }
        self.labels = labels
        input = InputFrontEnd(
            buttons: labels.keys, encoder: encoder == nil ? nil : (false, false), settle: timing.settle, hold: timing.hold)
    }

    /// The whole check: outputs, then inputs until `shouldStop` says so after a wake-up.
    public func run(shouldStop: () -> Bool) throws(HALError) {
        try checkOutputs(shouldStop: shouldStop)
        if shouldStop() { return }
        report("press the buttons and turn the knob\(cards == nil ? "" : ", hold a card to the reader"); Ctrl-C ends the self-test")
        try watch(until: nil, shouldStop: shouldStop)
    }

    /// Display, LEDs and buzzer in turn. Inputs that arrive meanwhile are reported too.
    public func checkOutputs(shouldStop: () -> Bool = { false }) throws(HALError) {
        if let encoder {
            let levels = (a: attempt(encoder.a.name) { try encoder.a.read() } ?? false,
                          b: attempt(encoder.b.name) { try encoder.b.read() } ?? false)
            input = InputFrontEnd(buttons: labels.keys, encoder: levels, settle: timing.settle, hold: timing.hold)
        }
        _ = attempt("display") { try display.setBrightness(1) }
        report("display: every segment (8.8.:8.8.)")
        _ = attempt("display") { try display.show(.allLit) }
        try pause(stepLength, shouldStop)
        for position in 0..<4 {
            if shouldStop() { return }
            var digits: [UInt8] = [0, 0, 0, 0]
            digits[position] = SevenSegmentFont.segments(for: "8")
            report("display: digit \(position + 1) of 4")
            _ = attempt("display") { try display.show(SegmentFrame(digits: digits, colon: false)) }
            try pause(stepLength, shouldStop)
        }
        _ = attempt("display") { try display.show(.dark) }
        for led in leds {
            if shouldStop() { return }
            report("led \(led.name) (\(led.wiring))")
            _ = attempt("led \(led.name)") { try led.line.write(true) }
            try pause(stepLength, shouldStop)
            _ = attempt("led \(led.name)") { try led.line.write(false) }
        }
        if shouldStop() { return }
        report("\(buzzer.name) (\(buzzer.wiring)): beep")
        _ = attempt(buzzer.name) { try buzzer.line.write(true) }
        try pause(beepLength, shouldStop)
        _ = attempt(buzzer.name) { try buzzer.line.write(false) }
    }

    /// Silences and darkens every output (before exiting, and on Ctrl-C mid-check).
    public func allOff() {
        _ = attempt(buzzer.name) { try buzzer.line.write(false) }
        for led in leds { _ = attempt("led \(led.name)") { try led.line.write(false) } }
        _ = attempt("display") { try display.show(.dark) }
    }

    /// Reports inputs until `end` (a moment since the self-test began; nil: no end) or stop.
    public func watch(until end: Moment?, shouldStop: () -> Bool) throws(HALError) {
        while !shouldStop() {
            let now = self.now
            if let end, now >= end { return }
            var deadline = input.nextDeadline
            if let end { deadline = deadline.map { min($0, end) } ?? end }
            let timeout = deadline.map { max($0 - now, .zero) }
            let edges = try waiter.wait(timeout: timeout)
            handle(edges)
            if let cards { hear(cards) }
        }
    }

    private var now: Moment { Moment(origin.duration(to: clock.now)) }

    private func pause(_ length: Duration, _ shouldStop: () -> Bool) throws(HALError) {
        try watch(until: now + length, shouldStop: shouldStop)
    }

    private func handle(_ edges: [InputEdge]) {
        for event in input.feed(edges, at: now) {
            switch event.kind {
            case .pressed(let role): report("\(label(role)) pressed", at: event.at)
            case .released(let role): report("\(label(role)) released", at: event.at)
            case .held(let role): report("\(label(role)) held", at: event.at)
            case .turned(let detents):
                report("knob \(detents > 0 ? "+1 (clockwise)" : "-1 (counter-clockwise)")", at: event.at)
            }
        }
    }

    /// What the card reader's thread reported: a card's UID, the reader failing or answering again.
    private func hear(_ cards: CardTapSource) {
        for report in cards.take() {
            switch report {
            // The UID on the station's own terminal, for the owner checking the reader; nothing else
            // ever shows it (the loop turns it into the card's pseudonym at once).
            case .arrived(let uid): self.report("card \(uid.hex) (\(uid.bytes.count) bytes) on \(cards.name)")
            case .unreadableCard(let count): self.report("card with a \(count)-byte UID on \(cards.name): no card a member carries")
            case .fault(let error): self.report("nfc reader: FAILED: \(error)")
            case .recovered: self.report("nfc reader \(cards.name) answers")
            }
        }
    }

    private func label(_ role: InputRole) -> String { labels[role] ?? role.lineName }

    /// Runs `operation`, reporting a failure (and returning nil) instead of stopping.
    private func attempt<T>(_ device: String, _ operation: () throws -> T) -> T? {
        do {
            return try operation()
        } catch {
            report("\(device): FAILED: \(error)")
            return nil
        }
    }

    private func report(_ text: String, at moment: Moment? = nil) {
        print("[\(Self.timestamp(moment ?? now))] \(text)")
    }

    /// Seconds since the self-test began, to the millisecond: `   12.345`.
    static func timestamp(_ moment: Moment) -> String {
        let millis = max(moment.nanoseconds, 0) / 1_000_000
        let fraction = String(millis % 1000)
        let whole = String(millis / 1000)
        return String(repeating: " ", count: max(0, 5 - whole.count)) + whole + "."
            + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
