@testable import GymTimerCore

/// Seconds as a moment (to the nanosecond).
func at(_ seconds: Double) -> Moment { Moment(nanoseconds: Int64((seconds * 1e9).rounded())) }

/// Any mode's pure interface, so one driver runs them all.
protocol DrivenMachine {
    func nextDeadline(after now: Moment) -> Moment?
    mutating func handle(_ event: ControlEvent, at now: Moment) -> [Effect]
}

extension Kiosk: DrivenMachine {}
extension RestMode: DrivenMachine {}
extension IntervalMode: DrivenMachine {}
extension WorkoutMode: DrivenMachine {}

extension Driver where Machine == Kiosk {
    /// A kiosk with the default settings, started at the origin.
    static func startedKiosk() -> Driver<Kiosk> {
        var kiosk = Kiosk(settings: KioskSettings())
        _ = kiosk.start(at: .origin)
        return Driver(kiosk)
    }
}

/// Drives a machine as the runtime does: every deadline it asks for is handled exactly when due,
/// and inputs arrive at given moments after the deadlines due by then. Keeps a log of effects.
struct Driver<Machine: DrivenMachine> {
    var machine: Machine
    var now: Moment = .origin
    var log: [(at: Moment, effect: Effect)] = []

    init(_ machine: Machine, at now: Moment = .origin) {
        self.machine = machine
        self.now = now
    }

    /// Handles every deadline due up to and including `end`, then stands at `end`.
    mutating func run(to end: Moment) {
        var wakes = 0
        while let due = machine.nextDeadline(after: now), due <= end {
            precondition(due >= now, "a deadline in the past at \(now): \(due)")
            wakes += 1
            precondition(wakes < 100_000, "deadline loop at \(now)")
            now = due
            log += machine.handle(.deadline, at: now).map { (now, $0) }
        }
        now = max(now, end)
    }

    /// The effects of `event` at `moment` (deadlines due before it are handled first, and logged).
    @discardableResult
    mutating func send(_ event: ControlEvent, at moment: Moment) -> [Effect] {
        run(to: moment)
        let effects = machine.handle(event, at: moment)
        log += effects.map { (moment, $0) }
        return effects
    }

    /// The sounds started, with their moments (nil: stopped).
    var sounds: [(Moment, String?)] {
        log.compactMap { entry in
            if case .sound(let sound) = entry.effect { return (entry.at, sound?.name) }
            return nil
        }
    }

    /// The cue sounds started (stops left out).
    var cues: [String] { sounds.compactMap(\.1) }

    var records: [WorkoutRecord] {
        log.compactMap { if case .record(let record) = $0.effect { record } else { nil } }
    }

    /// The last display content shown at or before `moment`.
    func display(at moment: Moment) -> DisplayContent? {
        log.last { entry in
            if case .display = entry.effect { return entry.at <= moment }
            return false
        }.flatMap { if case .display(let content) = $0.effect { content } else { nil } }
    }

    /// The LEDs lit at or before `moment`.
    func leds(at moment: Moment) -> Set<StatusLED>? {
        log.last { entry in
            if case .leds = entry.effect { return entry.at <= moment }
            return false
        }.flatMap { if case .leds(let lit) = $0.effect { lit } else { nil } }
    }

    /// The effects logged at exactly `moment`.
    func effects(at moment: Moment) -> [Effect] { log.filter { $0.at == moment }.map(\.effect) }
}

/// Sound moments and names, comparable in #expect.
func cueTimes<M>(_ driver: Driver<M>) -> [String] {
    driver.sounds.compactMap { moment, name in name.map { "\(moment) \($0)" } }
}

/// `effects` as the drivers carry them out: a display or LED effect that repeats the last one
/// changes nothing on the outputs, so it is left out (the core says what it wants shown, the
/// drivers skip what is already shown).
func written(_ effects: [Effect]) -> [Effect] {
    var display: DisplayContent?
    var leds: Set<StatusLED>?
    return effects.filter { effect in
        switch effect {
        case .display(let content):
            defer { display = content }
            return content != display
        case .leds(let lit):
            defer { leds = lit }
            return lit != leds
        default:
            return true
        }
    }
}
