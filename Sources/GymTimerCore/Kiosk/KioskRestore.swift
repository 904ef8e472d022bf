/// A kiosk rebuilt from what an earlier process stored, and what rebuilding it did.
public struct KioskRestore: Sendable {
    /// How far from the save a stored moment may lie and still be trusted.
    public static let window: Duration = .seconds(31 * 86_400)

    public var kiosk: Kiosk
    /// Records of work that the new settings ended (a rest workout's counted sets), to be stored.
    public var records: [WorkoutRecord]
    /// One line per thing the owner should be told (settings changed, state not trusted).
    public var notes: [String]
    /// The stored kiosk could not be trusted (out of range); the caller sets its file aside.
    public var implausible: Bool

    /// Rebuilds a kiosk stored whole by an earlier release (its journal held the config too):
    /// read as its progress, under `settings`.
    public init(_ stored: Kiosk?, savedAt: Moment, settings: KioskSettings) {
        self.init(progress: stored.map(KioskProgress.init), savedAt: savedAt, settings: settings)
    }

    /// Rebuilds the kiosk whose progress `stored` was saved at `savedAt`, under `settings` (the
    /// config as it is now).
    ///
    /// The mode in progress continues when the config still makes what it was running: a rest
    /// under the same rest settings, a run on a plan with the same digest (a preset or program
    /// found again by its plan if the config moved it). Otherwise a rest workout's counted sets
    /// are recorded and the mode starts afresh, with a note either way. A kiosk that is not
    /// plausible (out of range: a hand edit, damage) is never computed with.
    public init(progress stored: KioskProgress?, savedAt: Moment, settings: KioskSettings) {
        kiosk = Kiosk(settings: settings)
        records = []
        notes = []
        implausible = false
        guard let stored else { return }
        let check = PlausibilityCheck(savedAt: savedAt, window: Self.window)
        var candidate = Kiosk(settings: settings)
        switch Self.mode(stored.mode, settings, check) {
        case .kept(let mode):
            candidate.mode = mode
        case .implausible:
            refuse()
            return
        case .dropped(let records, let note):
            candidate.keepFloorSettings(of: stored)
            candidate.keepAthlete(of: stored, check)
            // The sets a changed config ended were the athlete's on the station then.
            let card = candidate.athlete?.card
            self.records = records.map { record in
                var record = record
                if record.athlete == nil { record.athlete = card }
                return record
            }
            if let note { notes.append(note) }
            kiosk = candidate
            return
        }
        candidate.keepFloorSettings(of: stored)
        candidate.keepAthlete(of: stored, check)
        if let before = stored.beforeStartPress, let pressedAt = stored.startPressedAt,
           case .kept(let mode) = Self.mode(before, settings, check) {
            candidate.beforeStartPress = mode
            candidate.startPressedAt = pressedAt
        }
        if let selected = stored.menuSelected, let touchedAt = stored.menuTouchedAt, var menu = candidate.menu(at: touchedAt) {
            guard selected >= 0, selected < menu.entries.count else {
                refuse()
                return
            }
            menu.selected = selected
            candidate.mode = .menu(menu, returningTo: candidate.mode)
        }
        guard candidate.isPlausible(around: savedAt, within: Self.window) else {
            refuse()
            return
        }
        kiosk = candidate
    }

    private mutating func refuse() {
        kiosk = Kiosk(settings: kiosk.settings)
        implausible = true
        notes.append("the stored running state is out of range; starting fresh")
    }

    /// What became of one stored mode under the config.
    private enum Outcome {
        case kept(Kiosk.Mode)
        /// The config no longer makes it: these records end it, and the owner is told (or not, for an idle mode).
        case dropped(records: [WorkoutRecord], note: String?)
        case implausible
    }

    private static func mode(_ stored: KioskProgress.Mode, _ settings: KioskSettings, _ check: PlausibilityCheck) -> Outcome {
        switch stored.kind {
        case .rest:
            return rest(stored, settings, check)
        case .interval:
            var interval = IntervalMode(settings: settings.interval)
            if let seconds = stored.seconds {
                guard seconds == interval.phaseSeconds || IntervalMode.phaseRange.contains(seconds) else { return .implausible }
                interval.phaseSeconds = seconds
            }
            return host(interval, stored.run, "interval workout", [interval], check, Kiosk.Mode.interval)
        case .workout:
            let fresh = WorkoutMode(settings: settings.workout, warningSeconds: settings.interval.warningSeconds)
            let choices = fresh.presets.indices.map { fresh.selecting(preset: $0) }
            let chosen = stored.selected.flatMap { choices.indices.contains($0) ? choices[$0] : nil } ?? fresh
            return host(chosen, stored.run, "guided workout", choices, check, Kiosk.Mode.workout)
        case .program:
            var fresh = Kiosk.freshProgram(settings)
            if let sent = stored.classProgram {
                guard sent.definitionProblem == nil else { return .implausible }
                fresh = fresh.selecting(classProgram: sent)
            }
            let choices = fresh.programs.indices.map { fresh.selecting(program: $0) }
            let chosen = stored.selected.flatMap { choices.indices.contains($0) ? choices[$0] : nil } ?? fresh
            return host(chosen, stored.run, "program \(chosen.program.name)", choices, check, Kiosk.Mode.program)
        }
    }

    private static func rest(_ stored: KioskProgress.Mode, _ settings: KioskSettings, _ check: PlausibilityCheck) -> Outcome {
        var rest = RestMode(settings: stored.restSettings ?? settings.rest)
        if let seconds = stored.seconds { rest.durationSeconds = seconds }
        rest.sets = stored.sets ?? 0
        rest.workoutStartedAt = stored.workoutStartedAt
        if let deadline = stored.restDeadline {
            rest.phase = .resting(Countdown(deadline: deadline), beepsLeft: stored.beepsLeft ?? 0)
        } else if let remaining = stored.restRemaining {
            rest.phase = .paused(remaining: remaining, beepsLeft: stored.beepsLeft ?? 0)
        } else if let since = stored.alarmSince {
            rest.phase = .alarm(since: since)
        }
        guard rest.isPlausible(check) else { return .implausible }
        if rest.settings == settings.rest { return .kept(.rest(rest)) }
        guard rest.sets > 0 else {
            return .dropped(records: [], note: rest.isIdle ? nil : "the config changed; the rest workout in progress was dropped")
        }
        let sets = rest.sets
        let records = rest.endWorkout(at: check.savedAt).compactMap { if case .record(let record) = $0 { record } else { nil } }
        return .dropped(records: records, note: "the config changed; the rest workout in progress (\(sets) sets) was recorded and ended")
    }

    /// A mode on the program engine: `chosen` with the stored run on its plan, or on the plan of
    /// the one of `choices` with the stored run's digest (the config moved it).
    private static func host<Host: ProgramHost>(
        _ chosen: Host, _ stored: KioskProgress.Run?, _ name: String, _ choices: [Host], _ check: PlausibilityCheck,
        _ wrap: (Host) -> Kiosk.Mode
    ) -> Outcome {
        guard let stored else { return .kept(wrap(chosen)) }
        var host = chosen
        if host.plan().digest != stored.planDigest {
            guard let other = choices.first(where: { $0.plan().digest == stored.planDigest }) else {
                return .dropped(records: [], note: "the config changed; the \(name) in progress was dropped")
            }
            host = other
        }
        guard let run = ProgramRun(restoring: stored, on: host.plan(), check) else { return .implausible }
        host.run = run
        return .kept(wrap(host))
    }
}
