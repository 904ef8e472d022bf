import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerSystem

/// The one event loop: it blocks until the next input edge or the next deadline anybody asked
/// for (the core, a debouncer, the buzzer, a blink, a sound ending), handles what happened, and
/// blocks again. Nothing wakes it while idle; time comes only from the injected clock.
public final class KioskRuntime<C: Clock> where C.Duration == Duration {
    public private(set) var kiosk: Kiosk {
        didSet { kioskChanges &+= 1 }
    }
    /// Counts the writes to `kiosk`, and its count at the last save: the same, the kiosk the
    /// store was last given (see `RunningStateStore.save(kiosk:unchangedSinceLastCall:…)`).
    private var kioskChanges = 0
    private var savedKioskChanges = -1
    /// Times the loop has woken, for the benchmarks.
    public private(set) var wakeups = 0
    /// A card was tapped: the fleet station asks the gym for it and gives what the gym told it
    /// before (its short name, shown at the tap, and the athlete's bests, for `Pr`;
    /// `KioskFleet.attach`). Nil, or without a fleet: the card shows its last four hex digits
    /// and no best is known (until the gym's answer comes).
    public var cardTapped: (CardID) -> CardTap? = { _ in nil }
    /// The gym's card key, which turns a tapped card's UID into its pseudonym
    /// (`KioskDataDirectory.cardKey`), or why it cannot be read; nil: none was given. Without a
    /// key, taps are refused, each logged with why.
    public var cardKey: Result<CardKey, CardKeyFile.Problem>?

    private let clock: C
    private let origin: C.Instant
    private let devices: KioskDevices
    private let history: any WorkoutHistory
    private let renderer: SevenSegmentRenderer
    private let buzzer: BuzzerPlayer
    private let lights: StatusLights
    private let timedDrivers: [any TimedDriver]
    private var input: InputFrontEnd
    private let store: (any RunningStateStore)?
    private var lastRetry: Moment?
    /// Hears a wall-clock step while a run is held for the clock (see `checkClock`).
    private let clockSteps: ClockStepSource?
    private var lastClockCheck: Moment?
    /// The moment the kiosk last handled anything: its next deadline is asked for after this
    /// moment, not after the clock's now, so a wake-up whose handling ran past a second
    /// boundary still wakes for that boundary (at once) instead of skipping the second.
    private var handledAt: Moment = .origin
    private let faults: FaultLog
    /// The devices' faults (the fleet's health reads which fail and the last one).
    public var faultLog: FaultLog { faults }
    /// The wall clock and zone the kiosk's sleep window is read in; nil: the display never sleeps.
    private let sleepClock: SleepClock?
    /// The sleep clock's one reading of this wake-up (`wakeups` when it was taken): the night
    /// check after handling, the one before the next wait and that wait's deadline share it.
    private var sleepReading: (wakeup: Int, reading: SleepClock.Reading)?

    /// `origin` is the clock instant that is `Moment.origin`; a kiosk rebuilt after a restart
    /// passes the same one, so stored moments keep their meaning. `extraDrivers` are woken at
    /// their deadlines like the built-in ones (the systemd watchdog pinger). With `store`, the
    /// running state is saved whenever it changes, after the effects that changed it were
    /// carried out, together with the records still waiting for the database (see
    /// `KioskStore`); waiting records are retried every `KioskStore.retryInterval`. `held` are
    /// presses a previous controller accepted: one whose button is still down is taken up, so
    /// its hold is not lost to the restart. `clockSteps` (among the waiter's sources too) wakes
    /// the loop when the wall clock steps while the store holds a run for the clock, or while
    /// a sleep window is set. With `sleepClock`, the loop tells the kiosk when the local clock
    /// enters and leaves its sleep window (`KioskCommand.sleep` / `.wake`, at the edges).
    public init(
        kiosk: Kiosk, clock: C, origin: C.Instant, devices: KioskDevices,
        history: any WorkoutHistory, timing: InputTiming = InputTiming(), faults: FaultLog,
        extraDrivers: [any TimedDriver] = [], store: (any RunningStateStore)? = nil, held: [String: HeldPress] = [:],
        clockSteps: ClockStepSource? = nil, sleepClock: SleepClock? = nil
    ) {
        self.sleepClock = sleepClock
        self.store = store
        self.clockSteps = clockSteps
        self.faults = faults
        self.kiosk = kiosk
        self.clock = clock
        self.origin = origin
        self.devices = devices
        self.history = history
        renderer = SevenSegmentRenderer(display: devices.display, faults: faults)
        buzzer = BuzzerPlayer(line: devices.buzzer, faults: faults)
        lights = StatusLights(lines: devices.leds, faults: faults)
        var timed: [any TimedDriver] = [renderer, buzzer]
        if let sound = devices.sound as? any TimedDriver { timed.append(sound) }
        timedDrivers = timed + extraDrivers
        input = InputFrontEnd(
            buttons: devices.inputs.keys, encoder: Self.encoderLevels(devices.inputs, faults),
            settle: timing.settle, hold: timing.hold)
        for (name, press) in held {
            guard let role = InputRole(lineName: name), let line = devices.inputs[role],
                  faults.attempt(line.name, { try line.read() }) == true else { continue }
            input.resume(role, press)
        }
    }

    /// The knob's contacts' levels now, nil when no knob is fitted (a failed read counts as
    /// inactive, logged).
    static func encoderLevels(_ inputs: [InputRole: any DigitalInput], _ faults: FaultLog) -> (a: Bool, b: Bool)? {
        guard let a = inputs[.encoderA], let b = inputs[.encoderB] else { return nil }
        return (faults.attempt(a.name) { try a.read() } ?? false, faults.attempt(b.name) { try b.read() } ?? false)
    }

    /// The current moment on the kiosk's timeline.
    public var now: Moment { Moment(origin.duration(to: clock.now)) }

    /// Shows the kiosk's state on the outputs; call once before waiting.
    public func start() {
        let at = now
        handledAt = at
        apply(kiosk.start(at: at), at: at)
        checkNight(at: at)
        save()
    }

    /// What the display shows: the renderer's, which writes only what changes.
    public var shownDisplay: DisplayContent? { renderer.content }

    /// The earliest moment anything needs the loop to wake, or nil to wait for input alone.
    public var nextDeadline: Moment? { deadline(kioskDue: kiosk.nextDeadline(after: handledAt)) }

    /// `nextDeadline`, given the kiosk's own (`step` has just asked it).
    private func deadline(kioskDue: Moment?) -> Moment? {
        // Folded one by one, not gathered in an array: this runs on every wake-up.
        let at = now
        var earliest = Self.earlier(kioskDue, input.nextDeadline)
        for driver in timedDrivers { earliest = Self.earlier(earliest, driver.nextDeadline) }
        if let store {
            if store.hasPending { earliest = Self.earlier(earliest, (lastRetry ?? at) + store.retryInterval) }
            if store.awaitsClock { earliest = Self.earlier(earliest, (lastClockCheck ?? at) + Self.clockRecheck) }
        }
        earliest = Self.earlier(earliest, sleepReading(at: at)?.nextCheck(kiosk.sleepWindow))
        return earliest
    }

    /// The earlier of two optional moments (nil: none).
    private static func earlier(_ a: Moment?, _ b: Moment?) -> Moment? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// Runs until `end` (if given) or until `shouldStop` says so after a wake-up.
    public func run(until end: Moment? = nil, shouldStop: () -> Bool = { false }) throws(HALError) {
        while !shouldStop() {
            if let end, now >= end { return }
            try step(notAfter: end)
        }
    }

    /// Blocks once, until the next edge or deadline (but not past `limit`), and handles it.
    public func step(notAfter limit: Moment? = nil) throws(HALError) {
        // The core's deadline is fixed before waiting, as of the last moment it handled:
        // asked again after waking (or after a wake-up that ran long), it would already name
        // the next one.
        checkNight(at: now)
        let kioskDue = kiosk.nextDeadline(after: handledAt)
        var deadline = deadline(kioskDue: kioskDue)
        if let limit { deadline = deadline.map { min($0, limit) } ?? limit }
        clockSteps?.listening = (store?.awaitsClock ?? false) || kiosk.sleepWindow != nil
        let timeout = deadline.map { clock.now.duration(to: origin.advanced(by: $0.sinceOrigin)) }
        let edges = try devices.waiter.wait(timeout: timeout.map { max($0, .zero) })
        wakeups += 1
        handle(edges: edges, kioskDue: kioskDue, at: now)
        save()
    }

    /// Writes the running state if it changed (see `KioskStore.save`); `ended` marks a clean end.
    public func save(ended: Bool = false) {
        guard let store else { return }
        let held = Dictionary(uniqueKeysWithValues: input.heldPresses.map { ($0.key.lineName, $0.value) })
        store.save(kiosk: kiosk, unchangedSinceLastCall: kioskChanges == savedKioskChanges, held: held, at: now, ended: ended)
        savedKioskChanges = kioskChanges
    }

    /// Writes the running state over the whole journal (see `KioskStore.saveOverwritingEverything`):
    /// after the gym forgot an athlete, no earlier save keeps their card.
    public func saveOverwritingEverything() {
        guard let store else { return }
        let held = Dictionary(uniqueKeysWithValues: input.heldPresses.map { ($0.key.lineName, $0.value) })
        store.saveOverwritingEverything(kiosk: kiosk, held: held, at: now)
        savedKioskChanges = kioskChanges
    }

    /// Hands the core an event that did not come from a device (a fleet command), as of
    /// `moment` (a start scheduled for an instant the loop woke just after); the effects are
    /// carried out now and returned (a refused command's `.refused` goes back to its sender).
    @discardableResult
    public func inject(_ event: ControlEvent, at moment: Moment) -> [Effect] {
        let at = now
        let handled = min(moment, at)
        handledAt = max(handledAt, handled)
        let effects = kiosk.handle(event, at: handled)
        apply(effects, at: at)
        return effects
    }

    /// A card held to the station's reader (or a scripted tap): its athlete taps in or out.
    /// A card read at the station, by the reader or a script: its pseudonym under the gym's
    /// `cardKey` taps in, and the UID goes no further. Without a key the tap is refused, logged.
    public func tapped(_ uid: CardUID, at moment: Moment) {
        switch cardKey {
        case .success(let key)?: tapped(card: key.pseudonym(of: uid), at: moment)
        case .failure(let problem)?: refuseTap(because: "\(problem)")
        case nil: refuseTap(because: "none was given")
        }
    }

    /// A fault of the station's, logged once (as a device's, and on its health) however many
    /// cards are tapped meanwhile.
    private func refuseTap(because why: String) {
        faults.failed("card key", MissingCardKey(why: why))
    }

    /// A card that taps in, known by its pseudonym.
    public func tapped(card: CardID, at moment: Moment) {
        let at = now
        handledAt = max(handledAt, min(moment, at))
        apply(kiosk.handle(.tapped(cardTapped(card) ?? CardTap(card: card)), at: at), at: at)
    }

    /// What the card reader's thread reported since the last wake-up: taps, and its faults
    /// and recovery (once each, as every device's).
    private func hear(_ cards: CardTapSource, at now: Moment) {
        for report in cards.take() {
            switch report {
            case .arrived(let card): tapped(card, at: now)
            case .fault(let error): faults.failed(cards.name, error)
            case .recovered: faults.succeeded(cards.name)
            case .unreadableCard(let count): faults.note("card reader \(cards.name): a card with a \(count)-byte UID is no card a member carries; ignored")
            }
        }
    }

    /// Retries the waiting records when their retry falls due (or starts the wait for it).
    private func retryPending(at now: Moment) {
        guard let store, store.hasPending else {
            lastRetry = nil
            return
        }
        guard let last = lastRetry else {
            lastRetry = now
            return
        }
        if now >= last + store.retryInterval {
            store.retry()
            lastRetry = now
        }
    }

    /// Handles the core's deadline if it fell due, the edges that arrived, and every driver
    /// deadline that fell due, in that order.
    func handle(edges: [InputEdge], kioskDue: Moment?, at now: Moment) {
        handledAt = now
        if let due = kioskDue, due <= now {
            apply(kiosk.handle(.deadline, at: now), at: now)
        }
        for event in input.feed(edges, at: now) {
            if let control = event.control { apply(kiosk.handle(control, at: now), at: now) }
        }
        if let cards = devices.cards { hear(cards, at: now) }
        for driver in timedDrivers {
            if let due = driver.nextDeadline, due <= now { driver.fire(at: now) }
        }
        retryPending(at: now)
        checkClock(at: now)
        checkNight(at: now)
    }

    /// This wake-up's reading of the sleep clock, taken the first time it is asked for (nil
    /// without a sleep clock or a window: nothing is read then).
    private func sleepReading(at now: Moment) -> SleepClock.Reading? {
        guard let sleepClock, kiosk.sleepWindow != nil else { return nil }
        if let taken = sleepReading, taken.wakeup == wakeups { return taken.reading }
        let reading = sleepClock.read(at: now)
        sleepReading = (wakeups, reading)
        return reading
    }

    /// Tells the kiosk whether its sleep window is in effect now, when that changed (the
    /// window's edge came, a window was set or cleared, the wall clock stepped or became trusted).
    private func checkNight(at now: Moment) {
        guard sleepClock != nil else { return }
        let night = sleepReading(at: now)?.isNight(kiosk.sleepWindow, at: now) ?? false
        guard night != kiosk.isNight else { return }
        handledAt = max(handledAt, now)
        apply(kiosk.handle(.command(night ? .sleep : .wake), at: now), at: now)
    }

    /// How often a held run's clock is read again while it waits: a synchronisation that slews
    /// the clock instead of stepping it is heard by nothing else.
    public static var clockRecheck: Duration { .seconds(10) }

    /// While the store holds a run for the clock: on a step, or every `clockRecheck`, asks it
    /// whether the clock can be trusted now, and if so runs the kiosk it resumes (shown at once).
    private func checkClock(at now: Moment) {
        let stepped = clockSteps?.takeStep() ?? false
        guard let store, store.awaitsClock else {
            lastClockCheck = nil
            return
        }
        // The first wake-up while something is held reads the clock at once, then every recheck.
        guard stepped || lastClockCheck.map({ now >= $0 + Self.clockRecheck }) ?? true else { return }
        lastClockCheck = now
        resumeIfSynchronised(store, at: now)
    }

    private func resumeIfSynchronised(_ store: any RunningStateStore, at now: Moment) {
        guard let resumed = store.resumeOnSync(kiosk, at: now) else { return }
        kiosk = resumed
        handledAt = now
        apply(kiosk.start(at: now), at: now)
    }

    private func apply(_ effects: [Effect], at now: Moment) {
        for effect in effects {
            switch effect {
            case .display(let content): renderer.show(content, at: now)
            case .leds(let lit): lights.show(lit)
            case .buzzer(let pattern): buzzer.play(pattern, at: now)
            case .sound(let sound):
                devices.sound.play(sound, at: now)
                if let sound, !devices.sound.isAvailable, let pattern = BuzzerFallback.pattern(for: sound) {
                    buzzer.play(pattern, at: now)
                }
            case .record(let workout): history.record(workout)
            case .refused: break
            case .brightness(let percent): renderer.setBrightness(percent: percent)
            }
        }
    }
}
