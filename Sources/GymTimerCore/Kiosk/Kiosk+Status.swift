/// What the kiosk is doing, in words: `systemctl status` shows it (sd_notify STATUS=) and the
/// terminal kiosk prints it under the display, so idle rest and idle interval, a set's progress
/// and the menu's choice can be told apart without knowing the digits' conventions.
extension Kiosk {
    public var statusLine: String {
        switch mode {
        case .rest(let rest):
            switch rest.phase {
            case .idle: return "rest mode: idle, \(rest.durationSeconds) s, \(Self.count(rest.sets, "set"))"
            case .resting: return "rest mode: resting, \(Self.count(rest.sets, "set")) done"
            case .alarm: return "rest mode: alarm — dismiss stops it"
            case .paused: return "rest mode: paused, \(Self.count(rest.sets, "set")) done"
            }
        case .interval(let interval): return "interval mode: " + Self.detail(of: interval)
        case .workout(let workout): return "workout mode: " + Self.detail(of: workout)
        case .program(let program): return "program \(program.program.name): " + program.statusDetail
        case .menu(let menu, _): return "mode menu: \(name(of: menu.selection))"
        }
    }

    /// Whether an interval workout, a guided session or a program is under way (running or
    /// paused, not yet finished): one that goes back to idle without a record was thrown away,
    /// which the terminal kiosk says (`workout ended: nothing recorded`).
    public var runInProgress: Bool {
        if case .running = hostedRun?.phase { return true }
        return false
    }

    /// The run of the interval, workout or program mode (nil in rest and the menu, and in idle).
    public var hostedRun: ProgramRun? {
        switch mode {
        case .rest, .menu: return nil
        case .interval(let interval): return interval.run
        case .workout(let workout): return workout.run
        case .program(let program): return program.run
        }
    }

    private static func detail(of interval: IntervalMode) -> String {
        switch interval.state {
        case .idle: return "idle, \(interval.sets) sets of \(interval.phaseSeconds) s + \(interval.phaseSeconds) s"
        case .running(let run):
            let phase = "set \(run.segment / 2 + 1) of \(interval.sets), \(interval.intensity(ofPhase: run.segment).rawValue)"
            return run.isPaused ? phase + ", paused" : phase
        case .complete: return "complete, \(Self.count(interval.sets, "set"))"
        }
    }

    private static func detail(of workout: WorkoutMode) -> String {
        let preset = workout.preset
        switch workout.state {
        case .idle: return "idle, \(preset.name)"
        case .running(let run):
            let step: String
            switch workout.sessionPart(of: run) {
            case .exercise(let index):
                step = "exercise \(index + 1) of \(preset.exercises.count): \(preset.exercises[index])"
            case .rest(let after):
                step = after + 1 < preset.exercises.count ? "rest, next: \(preset.exercises[after + 1])" : "rest"
            }
            return "\(preset.name), " + (run.isPaused ? step + ", paused" : step)
        case .complete(_, _, let exercises): return "\(preset.name) complete, \(Self.count(exercises, "exercise"))"
        }
    }

    /// What a menu entry starts, as the menu's knob offers it.
    private func name(of entry: ModeMenu.Entry) -> String {
        switch entry {
        case .rest: return "rest"
        case .interval: return "interval"
        case .workout(let preset):
            let presets = settings.workout.presets
            return presets.indices.contains(preset) ? "workout \(presets[preset].name)" : "workout"
        case .program(let index):
            let programs = settings.programs.programs
            return programs.indices.contains(index) ? "program \(programs[index].name)" : "program"
        }
    }

    private static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
}
