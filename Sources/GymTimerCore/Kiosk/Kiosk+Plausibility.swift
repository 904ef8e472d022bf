/// Checks on a kiosk read back from storage (a hand-edited or damaged file) before anything
/// computes with it: every index in range, every count and length one the settings allow, every
/// moment near the save and every run the one its settings make. Only comparisons, so no value
/// can trap here; a kiosk that passes cannot make the modes' arithmetic overflow.
extension Kiosk {
    /// Whether this kiosk, saved at `savedAt`, can be trusted, its moments within `window` of it.
    /// Its settings must be ones the config accepted (`restoring` checks against those).
    public func isPlausible(around savedAt: Moment, within window: Duration) -> Bool {
        let check = PlausibilityCheck(savedAt: savedAt, window: window)
        guard check.near(startPressedAt), beforeStartPress.map({ isPlausible($0, check, inMenu: false) }) ?? true else {
            return false
        }
        return isPlausible(mode, check, inMenu: false)
    }

    private func isPlausible(_ mode: Mode, _ check: PlausibilityCheck, inMenu: Bool) -> Bool {
        switch mode {
        case .rest(let rest):
            return rest.settings == settings.rest && rest.isPlausible(check)
        case .interval(let interval):
            return interval.settings == settings.interval && interval.isPlausible(check)
        case .workout(let workout):
            return workout.presets == settings.workout.presets && workout.warningSeconds == settings.interval.warningSeconds
                && workout.isPlausible(check)
        case .program(let program):
            var expected = Self.freshProgram(settings)
            if let sent = program.classProgram {
                guard sent.definitionProblem == nil else { return false }
                expected = expected.selecting(classProgram: sent)
            }
            return program.programs == expected.programs && program.warningSeconds == expected.warningSeconds
                && program.isPlausible(check)
        case .menu(let menu, let previous):
            let expected = ModeMenu(
                presetCount: settings.workout.presets.count,
                programLabels: programLabels(in: previous), current: .rest, at: menu.touchedAt)
            return !inMenu && menu.entries == expected.entries && menu.selected >= 0 && menu.selected < menu.entries.count
                && check.near(menu.touchedAt) && isPlausible(previous, check, inMenu: true)
        }
    }
}

/// The bounds a stored kiosk's numbers are checked against.
struct PlausibilityCheck {
    let savedAt: Moment
    let window: Duration

    func near(_ moment: Moment?) -> Bool { moment.map { $0.isWithin(window, of: savedAt) } ?? true }

    func count(_ value: Int, atMost limit: Int) -> Bool { value >= 0 && value <= limit }

    /// Whether `run` is the run `schedule` makes, at a valid point of it.
    func run(_ run: SegmentRun, _ schedule: (segmentEnds: [Duration], cues: [SegmentRun.Cue])) -> Bool {
        guard !schedule.segmentEnds.isEmpty, run.segmentEnds == schedule.segmentEnds,
              run.cues == SegmentRun(segmentEnds: schedule.segmentEnds, cues: schedule.cues, startingAt: .origin).cues,
              count(run.segment, atMost: run.segmentEnds.count - 1), count(run.nextCue, atMost: run.cues.count),
              near(run.startedAt)
        else { return false }
        switch run.timing {
        case .running(let end): return near(end)
        case .paused(let remaining): return remaining >= .zero && remaining <= run.total
        }
    }
}

extension RestMode {
    func isPlausible(_ check: PlausibilityCheck) -> Bool {
        guard durationSeconds >= settings.minSeconds, durationSeconds <= settings.maxSeconds,
              check.count(sets, atMost: 100_000), check.near(workoutStartedAt) else { return false }
        switch phase {
        case .idle: return true
        case .resting(let countdown, let beepsLeft):
            return check.near(countdown.deadline) && check.count(beepsLeft, atMost: max(0, settings.warningSeconds))
        case .alarm(let since): return check.near(since)
        case .paused(let remaining, let beepsLeft):
            return remaining > .zero && remaining <= .seconds(settings.maxSeconds)
                && check.count(beepsLeft, atMost: max(0, settings.warningSeconds))
        }
    }
}

extension ProgramHost {
    /// Whether the run on the engine, if any, is the one the host's current choice makes, at a
    /// valid point of it.
    func isRunPlausible(_ check: PlausibilityCheck) -> Bool {
        guard let run else { return true }
        guard run.plan == plan(), check.count(run.rounds, atMost: 100_000), check.near(run.flashUntil),
              check.near(run.workStartedAt),
              run.pendingRecord.map({ $0.duration >= .zero && $0.duration <= check.window }) ?? true
        else { return false }
        switch run.phase {
        case .running(let segments):
            return check.run(segments, (segmentEnds: run.plan.intervalEnds, cues: run.plan.cues))
        case .finished(let since, let duration, let pages, let pageLength):
            return check.near(since) && duration >= .zero && duration <= check.window
                && !pages.isEmpty && pages.count <= 16 && pageLength > .zero && pageLength <= .seconds(60)
        }
    }
}

extension IntervalMode {
    func isPlausible(_ check: PlausibilityCheck) -> Bool {
        guard phaseSeconds == max(1, settings.phaseSeconds) || Self.phaseRange.contains(phaseSeconds) else { return false }
        return isRunPlausible(check)
    }
}

extension WorkoutMode {
    func isPlausible(_ check: PlausibilityCheck) -> Bool {
        guard presetIndex >= 0, presetIndex < presets.count else { return false }
        return isRunPlausible(check)
    }
}

extension ProgramMode {
    func isPlausible(_ check: PlausibilityCheck) -> Bool {
        guard selected >= 0, selected < programs.count else { return false }
        return isRunPlausible(check)
    }
}
