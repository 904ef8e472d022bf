/// Commands from outside (`KioskCommand`): each has one meaning whatever the mode. What is
/// already due is handled first, so a command never reorders the countdown; a command that
/// cannot be obeyed changes nothing and returns `.refused` (after any catch-up effects).
extension Kiosk {
    /// What a pause, resume or reset asks of the active mode.
    enum RunControl: String {
        case pause, resume, reset
    }

    mutating func obey(_ command: KioskCommand, at now: Moment) -> [Effect] {
        var effects: [Effect] = []
        if let due = nextDeadline(after: now), due <= now { effects = dispatch(.deadline, at: now) }
        let outcome: Result<[Effect], KioskRefusal>
        switch command {
        case .press(let button):
            return effects + react(to: .pressed(button), at: now) + react(to: .released(button), at: now)
        case .classStart(let expected, let workBegins):
            outcome = classStart(expecting: expected, workBegins: workBegins, at: now)
        case .followClass(let timeline): outcome = follow(timeline, at: now)
        case .pause: outcome = control(.pause, at: now)
        case .resume: outcome = control(.resume, at: now)
        case .reset: outcome = control(.reset, at: now)
        case .select(let entry): outcome = select(entry, at: now)
        case .selectProgram(let program): outcome = select(program, at: now)
        case .setRest(let seconds): outcome = setRest(seconds: seconds, at: now)
        case .showMessage(let text, let seconds):
            outcome = show(text, seconds: seconds, at: now)
        case .lockButtons(let locked):
            outcome = .success(lock(locked, at: now))
        case .setAthlete(let tap):
            outcome = .success(assignAthlete(tap, at: now))
        case .setBrightness(let percent): outcome = setBrightness(percent)
        case .setSleepWindow(let window):
            setSleepWindow(window)
            outcome = .success([])
        case .sleep, .wake:
            setNight(command == .sleep)
            outcome = .success([])
        }
        switch outcome {
        case .success(let more): return effects + more
        case .failure(let refusal): return effects + [.refused(refusal)]
        }
    }

    /// `select`: a mode menu entry, picked as the menu would, only while idle.
    private mutating func select(_ entry: ModeMenu.Entry, at now: Moment) -> Result<[Effect], KioskRefusal> {
        guard isIdle, let menu = menu(at: now) else {
            return .failure(KioskRefusal("select", "only while the station is idle (\(statusLine))"))
        }
        guard menu.entries.contains(entry) else { return .failure(KioskRefusal("select", "the mode menu has no such entry")) }
        return .success(pick(entry, leaving: mode, at: now))
    }

    /// `select` with a class's own program (its definition carried in the command), only while
    /// idle; a rest workout under way is recorded first.
    private mutating func select(_ program: Program, at now: Moment) -> Result<[Effect], KioskRefusal> {
        guard isIdle, menu(at: now) != nil else {
            return .failure(KioskRefusal("select", "only while the station is idle (\(statusLine))"))
        }
        if let problem = program.definitionProblem { return .failure(KioskRefusal("select", "the program's " + problem)) }
        var effects: [Effect] = []
        if case .rest(var rest) = mode {
            effects = rest.endWorkout(at: now).filter { if case .record = $0 { true } else { false } }
        }
        let current: ProgramMode
        if case .program(let program) = mode { current = program } else { current = Self.freshProgram(settings) }
        mode = .program(current.selecting(classProgram: program))
        return .success(effects + currentOutputs(at: now))
    }

    /// `set`: the rest length, as the knob would set it, only in rest mode.
    private mutating func setRest(seconds: Int, at now: Moment) -> Result<[Effect], KioskRefusal> {
        guard case .rest(var rest) = mode else { return .failure(KioskRefusal("set", "only in rest mode")) }
        let outcome = rest.setDuration(seconds: seconds, at: now)
        if case .success = outcome { mode = .rest(rest) }
        return outcome
    }

    /// `brightness`: the display's, a percentage kept with the state.
    private mutating func setBrightness(_ percent: Int) -> Result<[Effect], KioskRefusal> {
        guard (0...100).contains(percent) else { return .failure(KioskRefusal("brightness", "it is a percentage, 0 to 100")) }
        brightness = percent
        return .success([.brightness(percent: percent)])
    }

    /// The mode menu's entry for `mode` and the workout preset or program `name` (what a
    /// `select` command names: the fleet's, the web console's). Without a name, the preset or
    /// program already chosen stays; otherwise the first one.
    public func menuEntry(for mode: StartMode, named name: String?) -> Result<ModeMenu.Entry, KioskRefusal> {
        switch (mode, name) {
        case (.rest, nil): return .success(.rest)
        case (.interval, nil): return .success(.interval)
        case (.rest, _?), (.interval, _?): return .failure(KioskRefusal("select", "\(mode.rawValue) takes no name"))
        case (.workout, nil):
            if case .workout(let workout) = self.mode { return .success(.workout(preset: workout.presetIndex)) }
            return .success(.workout(preset: 0))
        case (.workout, let name?):
            guard let found = settings.workout.presets.firstIndex(where: { $0.name == name }) else {
                return .failure(KioskRefusal("select", "no workout preset named \(NameText.quoted(name))"))
            }
            return .success(.workout(preset: found))
        case (.program, nil):
            if case .program(let program) = self.mode { return .success(.program(program.selected)) }
            return .success(.program(0))
        case (.program, let name?):
            guard let found = Self.freshProgram(settings).programs.firstIndex(where: { $0.name == name }) else {
                return .failure(KioskRefusal("select", "no program named \(NameText.quoted(name))"))
            }
            return .success(.program(found))
        }
    }

    /// Starts what is selected, if the kiosk is still idle in `expected` (when given).
    private mutating func classStart(
        expecting expected: ModeMenu.Entry?, workBegins: Moment?, at now: Moment
    ) -> Result<[Effect], KioskRefusal> {
        guard isIdle, let current = menu(at: now)?.selection else {
            return .failure(KioskRefusal("start", "the station is no longer idle (\(statusLine)); nothing was changed"))
        }
        if let expected, expected != current {
            return .failure(KioskRefusal("start", "the station is no longer in what was selected (\(statusLine))"))
        }
        guard let workBegins else { return .success(dispatch(.pressed(.start), at: now)) }
        forgetStartPress()
        switch mode {
        case .program(var host):
            defer { mode = .program(host) }
            return .success(host.startClass(at: now, workBegins: workBegins))
        case .interval(var host):
            defer { mode = .interval(host) }
            return .success(host.startClass(at: now, workBegins: workBegins))
        case .workout(var host):
            defer { mode = .workout(host) }
            return .success(host.startClass(at: now, workBegins: workBegins))
        case .rest, .menu:
            return .success(dispatch(.pressed(.start), at: now))
        }
    }

    /// Hands the class's instants to the mode whose run is the class's.
    private mutating func follow(_ timeline: ClassTimeline, at now: Moment) -> Result<[Effect], KioskRefusal> {
        func moved<H: ProgramHost>(_ host: inout H, _ wrap: (H) -> Mode) -> Result<[Effect], KioskRefusal> {
            let outcome = host.follow(timeline, at: now)
            if case .success = outcome { mode = wrap(host) }
            return outcome
        }
        switch mode {
        case .program(var host): return moved(&host) { .program($0) }
        case .interval(var host): return moved(&host) { .interval($0) }
        case .workout(var host): return moved(&host) { .workout($0) }
        case .rest, .menu: return .failure(KioskRefusal("follow", "no class runs here (\(statusLine))"))
        }
    }

    /// Hands a pause, resume or reset to the active mode (`RunControllable`).
    private mutating func control(_ control: RunControl, at now: Moment) -> Result<[Effect], KioskRefusal> {
        switch mode {
        case .rest(var rest): return apply(control, to: &rest, at: now) { .rest($0) }
        case .interval(var interval): return apply(control, to: &interval, at: now) { .interval($0) }
        case .workout(var workout): return apply(control, to: &workout, at: now) { .workout($0) }
        case .program(var program): return apply(control, to: &program, at: now) { .program($0) }
        case .menu: return .failure(KioskRefusal(control.rawValue, "the mode menu is open"))
        }
    }

    private mutating func apply<M: RunControllable>(
        _ control: RunControl, to controlled: inout M, at now: Moment, as wrap: (M) -> Mode
    ) -> Result<[Effect], KioskRefusal> {
        let outcome: Result<[Effect], KioskRefusal>
        switch control {
        case .pause: outcome = controlled.pause(at: now)
        case .resume: outcome = controlled.resume(at: now)
        case .reset: outcome = .success(controlled.reset(at: now))
        }
        if case .success = outcome { mode = wrap(controlled) }
        return outcome
    }
}
