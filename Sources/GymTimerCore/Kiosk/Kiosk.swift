/// The whole kiosk as one pure state machine: the active mode (or the mode menu).
///
/// The runtime feeds it debounced events and the deadlines it asked for, and carries out the
/// effects it returns. Display and LED effects say what should be shown, whether or not it
/// already is: the drivers that write them skip what would change nothing.
///
/// The mode menu opens on a long press of start in idle. Start acts on its debounced press, so
/// by the time the hold arrives (2 s later) that press has already started a rest, a phase or an
/// exercise: the kiosk keeps the idle mode as it was before that press and, if the next input is
/// the hold of the same press, puts it back (no set counted, nothing recorded) and opens the menu.
/// Deadlines in between (the countdown ticking) do not matter; any other input forgets it.
///
/// Decisions where behaviour.md is silent: picking another mode in the menu ends a rest-mode
/// workout that has sets (they are recorded, as a hold of dismiss would), while picking the mode
/// already active keeps it as it was; a mode picked afresh starts from the settings (knob
/// changes made in another mode are not remembered).
public struct Kiosk: Hashable, Sendable, Codable {
    /// The job the kiosk is doing.
    public enum Mode: Hashable, Sendable, Codable {
        case rest(RestMode)
        case interval(IntervalMode)
        case workout(WorkoutMode)
        case program(ProgramMode)
        /// The mode menu, over the mode (in idle) it was opened from and returns to on dismiss.
        indirect case menu(ModeMenu, returningTo: Mode)
    }

    /// A hold of start longer than this after its press does not undo what the press started.
    public static let holdUndoWindow: Duration = .seconds(5)

    public let settings: KioskSettings
    public internal(set) var mode: Mode
    /// The idle mode as it was before the latest press of start, and when that press came,
    /// while a hold of that press could still open the menu.
    public internal(set) var beforeStartPress: Mode?
    public internal(set) var startPressedAt: Moment?
    /// Since when a coach has locked the wall's buttons and knob (`KioskCommand.lockButtons`),
    /// or nil: a locked kiosk ignores the hands on it (and says `Loc`), obeys commands.
    public internal(set) var lockedSince: Moment?
    /// A coach's message shown over the mode's display, while it lasts.
    public internal(set) var message: FloorMessage?
    /// The display's brightness a coach set (percent), or nil: the config's.
    public internal(set) var brightness: Int?
    /// The sleep window and whether the display sleeps now (`Kiosk+Sleep`), or nil: never set.
    public internal(set) var sleepState: KioskSleep?
    /// Who trains at the station now (a tap of their card, the coach's class list), or nil: a
    /// guest (`Kiosk+Athlete`).
    public internal(set) var athlete: StationAthlete?
    /// How the station's program results are recorded now, Rx or Scaled (`Kiosk+Division`):
    /// chosen at the wall or by the coach's class list; a fresh athlete or guest starts Rx.
    public internal(set) var division: Division {
        get { scaledDivision ?? .rx }
        set { scaledDivision = newValue == .rx ? nil : newValue }
    }
    /// `division` when it is not Rx: optional, so a kiosk stored before divisions still decodes.
    var scaledDivision: Division?

    public init(settings: KioskSettings) {
        self.settings = settings
        switch settings.startMode {
        case .rest: mode = .rest(RestMode(settings: settings.rest))
        case .interval: mode = .interval(IntervalMode(settings: settings.interval))
        case .workout: mode = .workout(Self.freshWorkout(settings))
        case .program: mode = .program(Self.freshProgram(settings))
        }
    }

    /// Whether the active mode waits in idle (the menu is not idle).
    public var isIdle: Bool {
        switch mode {
        case .rest(let rest): return rest.isIdle
        case .interval(let interval): return interval.isIdle
        case .workout(let workout): return workout.isIdle
        case .program(let program): return program.isIdle
        case .menu: return false
        }
    }

    /// Whether an interval run, workout or program has finished and shows its result (its
    /// record kept): the next class may start from there as from idle.
    public var showsResult: Bool {
        switch mode {
        case .rest, .menu: return false
        case .interval(let interval): return interval.showsResult
        case .workout(let workout): return workout.showsResult
        case .program(let program): return program.showsResult
        }
    }

    /// The outputs to show at start-up or after being rebuilt from stored state. A kiosk rebuilt
    /// after a restart first catches up with the clock (see the modes' deadline handling): the
    /// outputs are those of where it should be now, plus any cue still fresh and any record of a
    /// workout that ended while it was down. A press of start it remembers stays remembered, so
    /// a hold of that press still opens the menu when a restart fell in the middle of it.
    public mutating func start(at now: Moment) -> [Effect] {
        var caughtUp: [Effect] = []
        if let due = nextDeadline(after: now), due <= now { caughtUp = dispatch(.deadline, at: now) }
        let outputs = currentOutputs(at: now)
        let extra = caughtUp.filter { effect in
            switch effect {
            case .display, .leds: return false
            default: return !outputs.contains(effect)
            }
        }
        let shown = isAsleep ? outputs.filter { !$0.isShown } + Self.darkOutputs : outputs
        return shown + celebrating(attributed(extra, to: athlete?.card, division: division), at: now, aloud: false)
            + (brightness.map { [.brightness(percent: $0)] } ?? [])
    }

    /// Reacts to one event at `now`, returning the effects to carry out in order.
    public mutating func handle(_ event: ControlEvent, at now: Moment) -> [Effect] {
        if let woken = wakeOnly(event, at: now) { return woken }
        let wasIdle = isIdle
        let athleteBefore = athlete?.card
        let divisionBefore = division
        let effects: [Effect]
        if lockedSince != nil, event.isHand, !countsRound(event) {
            effects = shaded(lockedOut(event, at: now), after: event, wasIdle: wasIdle, at: now)
        } else {
            effects = shaded(overlaid(react(to: event, at: now), at: now, frameDue: event == .deadline), after: event, wasIdle: wasIdle, at: now)
        }
        let marked = attributed(effects, to: athleteBefore, division: divisionBefore)
        return attributing(celebrating(marked, at: now, aloud: true), after: event, wasIdle: wasIdle, at: now)
    }

    /// Whether `event` counts a round in the run under way (an AMRAP's start press, a knob that
    /// counts): the one thing a hand may still do on locked buttons.
    func countsRound(_ event: ControlEvent) -> Bool {
        switch mode {
        case .program(let program): return program.run?.countsRound(event) ?? false
        case .interval(let interval): return interval.run?.countsRound(event) ?? false
        case .workout(let workout): return workout.run?.countsRound(event) ?? false
        case .rest, .menu: return false
        }
    }

    /// What the mode (or the menu, or a command) does with `event`, before any message is laid
    /// over it, whether or not the buttons are locked (a coach's `press` command acts).
    mutating func react(to event: ControlEvent, at now: Moment) -> [Effect] {
        switch event {
        case .held(.start):
            if let before = beforeStartPress, let pressedAt = startPressedAt, now - pressedAt <= Self.holdUndoWindow {
                mode = before
                forgetStartPress()
                return openMenu(at: now)
            }
            forgetStartPress()
        case .pressed(.start):
            beforeStartPress = isIdle ? mode : nil
            startPressedAt = isIdle ? now : nil
        case .deadline:
            break
        case .command(let command):
            forgetStartPress()
            return obey(command, at: now)
        case .tapped(let tap):
            forgetStartPress()
            var effects: [Effect] = []
            if let due = nextDeadline(after: now), due <= now { effects = dispatch(.deadline, at: now) }
            return effects + tapped(tap, at: now)
        default:
            forgetStartPress()
            if let chosen = chooseDivision(by: event, at: now) { return chosen }
        }
        return dispatch(event, at: now)
    }

    /// When the kiosk must next be woken with `.deadline`, or nil to wait for input alone.
    public func nextDeadline(after now: Moment) -> Moment? {
        // Folded without an array: the loop asks on every wake-up.
        var earliest = modeDeadline(after: now)
        if let change = message?.nextChange(after: now), earliest.map({ change < $0 }) ?? true { earliest = change }
        if let sleep = sleepDeadline(after: now), earliest.map({ sleep < $0 }) ?? true { earliest = sleep }
        if let leaves = athleteDeadline(after: now), earliest.map({ leaves < $0 }) ?? true { earliest = leaves }
        return earliest
    }

    /// When the mode (or the menu) must next be woken.
    private func modeDeadline(after now: Moment) -> Moment? {
        switch mode {
        case .rest(let rest): return rest.nextDeadline(after: now)
        case .interval(let interval): return interval.nextDeadline(after: now)
        case .workout(let workout): return workout.nextDeadline(after: now)
        case .program(let program): return program.nextDeadline(after: now)
        case .menu(let menu, _): return menu.closesAt
        }
    }

    mutating func forgetStartPress() {
        beforeStartPress = nil
        startPressedAt = nil
    }

    mutating func dispatch(_ event: ControlEvent, at now: Moment) -> [Effect] {
        switch mode {
        case .rest(var rest):
            let effects = rest.handle(event, at: now)
            mode = .rest(rest)
            return effects
        case .interval(let interval): return host(interval, event, at: now, as: Mode.interval)
        case .workout(let workout): return host(workout, event, at: now, as: Mode.workout)
        case .program(let program): return host(program, event, at: now, as: Mode.program)
        case .menu(var menu, let previous):
            switch event {
            case .turned(let detents):
                let effects = menu.turn(detents, at: now)
                mode = .menu(menu, returningTo: previous)
                return effects
            case .pressed(.start):
                return pick(menu.selection, leaving: previous, at: now)
            case .pressed(.dismiss):
                mode = previous
                return currentOutputs(at: now)
            case .deadline where now >= menu.closesAt:
                mode = previous
                return currentOutputs(at: now)
            default:
                return []
            }
        }
    }

    /// Hands `event` to a mode on the program engine and keeps it as `mode` afterwards.
    private mutating func host<Host: ProgramHost>(
        _ host: Host, _ event: ControlEvent, at now: Moment, as wrap: (Host) -> Mode
    ) -> [Effect] {
        var host = host
        let effects = host.handle(event, at: now)
        mode = wrap(host)
        return effects
    }

    /// The mode menu as holding start would open it at `now`, on the mode the kiosk is in;
    /// nil while the menu is open already.
    public func menu(at now: Moment) -> ModeMenu? {
        let current: ModeMenu.Entry
        switch mode {
        case .rest: current = .rest
        case .interval: current = .interval
        case .workout(let workout): current = .workout(preset: workout.presetIndex)
        case .program(let program): current = .program(program.selected)
        case .menu: return nil
        }
        return ModeMenu(presetCount: settings.workout.presets.count, programLabels: programLabels(in: mode), current: current, at: now)
    }

    private mutating func openMenu(at now: Moment) -> [Effect] {
        guard let menu = menu(at: now) else { return [] }
        mode = .menu(menu, returningTo: mode)
        return menu.currentOutputs()
    }

    mutating func pick(_ entry: ModeMenu.Entry, leaving previous: Mode, at now: Moment) -> [Effect] {
        var effects: [Effect] = []
        if case .rest(var rest) = previous, entry != .rest {
            effects += rest.endWorkout(at: now).filter { if case .record = $0 { true } else { false } }
        }
        switch (entry, previous) {
        case (.rest, .rest): mode = previous
        case (.rest, _): mode = .rest(RestMode(settings: settings.rest))
        case (.interval, .interval): mode = previous
        case (.interval, _): mode = .interval(IntervalMode(settings: settings.interval))
        case (.workout(let preset), .workout(let workout)): mode = .workout(workout.selecting(preset: preset))
        case (.workout(let preset), _): mode = .workout(Self.freshWorkout(settings).selecting(preset: preset))
        case (.program(let index), .program(let program)): mode = .program(program.selecting(program: index))
        case (.program(let index), _): mode = .program(Self.freshProgram(settings).selecting(program: index))
        }
        return effects + currentOutputs(at: now)
    }

    private static func freshWorkout(_ settings: KioskSettings) -> WorkoutMode {
        WorkoutMode(settings: settings.workout, warningSeconds: settings.interval.warningSeconds)
    }

    /// The labels of the programs the menu offers from `mode`: the configured ones, and a
    /// class's program while the program mode holds one.
    func programLabels(in mode: Mode) -> [String] {
        if case .program(let program) = mode { return program.programs.map(\.label) }
        return Self.freshProgram(settings).programs.map(\.label)
    }

    /// The program mode as the menu offers it: the configured programs, in the menu's order.
    public static func freshProgram(_ settings: KioskSettings) -> ProgramMode {
        ProgramMode(settings: settings.programs, warningSeconds: settings.interval.warningSeconds)
    }

    func currentOutputs(at now: Moment) -> [Effect] {
        switch mode {
        case .rest(let rest): return rest.currentOutputs(at: now)
        case .interval(let interval): return interval.currentOutputs(at: now)
        case .workout(let workout): return workout.currentOutputs(at: now)
        case .program(let program): return program.currentOutputs(at: now)
        case .menu(let menu, _): return menu.currentOutputs()
        }
    }
}
