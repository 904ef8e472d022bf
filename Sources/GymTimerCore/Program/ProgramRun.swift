/// The one program engine: runs a `ProgramPlan` from its start to its result. running ⇄ paused →
/// finished; the mode that owns it goes back to idle when it says so.
///
/// The intervals and their cues are one `SegmentRun`, so the time shown, the interval and every
/// call are read off one monotonic deadline, and a run stored at any instant resumes where the
/// clock says (it is `Codable`). What differs between formats is in the plan, not in here.
///
/// Decisions where programs.md is silent:
/// * in the lead-in either button pauses (a round cannot be counted before the start);
/// * in amrap, dismiss pauses; in for-time it is "done" and there is no pause;
/// * a round counted or corrected shows `r  N` for a second, then the time again;
/// * the knob and start count rounds only while running, not paused;
/// * "done" is a press of dismiss, and so is the start of its hold, which abandons: the press
///   ends the program at once (time, `complete`), but its record waits for the release; the hold
///   drops it. A release that never comes (a restart) records it `doneConfirmation` later.
public struct ProgramRun: Hashable, Sendable, Codable {
    public enum Phase: Hashable, Sendable, Codable {
        /// Running or paused (see `SegmentRun.isPaused`); segment k is `plan.intervals[k]`.
        case running(SegmentRun)
        /// Ended at `since` after `duration` (the record's); the display cycles `pages`, each
        /// `pageLength`, until a press.
        case finished(since: Moment, duration: Duration, pages: [DisplayContent], pageLength: Duration)
    }

    /// What the owner does after an event.
    public enum Outcome: Hashable, Sendable {
        case stays
        /// Back to idle (abandoned, or the result dismissed).
        case resets
    }

    /// How long a counted round and an interval's banner are shown.
    public static let bannerLength: Duration = .seconds(1)
    /// How long after "done" its record is kept without a release: longer than the 2 s hold.
    public static let doneConfirmation: Duration = .milliseconds(2500)

    public let plan: ProgramPlan
    public internal(set) var phase: Phase
    /// Rounds counted with start and the knob (amrap, for-time); never negative.
    public internal(set) var rounds = 0
    /// Until when a counted round is shown.
    public internal(set) var flashUntil: Moment?
    /// When the first interval after the lead-in started (nil while in the lead-in).
    public internal(set) var workStartedAt: Moment?
    /// The record of a "done" waiting for dismiss to be released (see the decisions above).
    public internal(set) var pendingRecord: WorkoutRecord?
    /// A finished class program's score (what its record says: `5 rounds`, `12:34, 3 rounds`),
    /// for the coach's tile; nil while running and for the other formats.
    public internal(set) var score: ProgramScore?

    init(plan: ProgramPlan, at now: Moment) {
        self.plan = plan
        self.phase = .running(SegmentRun(segmentEnds: plan.intervalEnds, cues: plan.cues, startingAt: now))
    }

    /// Starts `plan` at `now`: the run and the effects of its first instant.
    /// `startedAt` (at most `now`) is a class's: its lead-in started before `now` so that its work
    /// begins at the class's instant; what that lead-in would have said before `now` is not
    /// given late (the class's own countdown said it).
    public static func start(_ plan: ProgramPlan, at now: Moment, startedAt: Moment? = nil) -> (ProgramRun, [Effect]) {
        let begun = min(startedAt ?? now, now)
        var run = ProgramRun(plan: plan, at: begun)
        if begun < now, case .running(var segments) = run.phase {
            segments.nextCue = segments.cues.firstIndex { begun + $0.at >= now } ?? segments.cues.count
            run.phase = .running(segments)
        }
        // The first advance only gives the cues due at the start: the outputs are already shown.
        let cues = run.advance(to: now).filter { effect in
            switch effect {
            case .display, .leds: return false
            default: return true
            }
        }
        return (run, run.currentOutputs(at: now) + cues)
    }

    public var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }

    public var isPaused: Bool {
        if case .running(let run) = phase { return run.isPaused }
        return false
    }

    /// Whether the lead-in is on.
    public var inLeadIn: Bool {
        if case .running(let run) = phase { return run.segment < plan.leadInCount }
        return false
    }

    /// The round in progress (1-based) for formats with planned rounds; the rounds counted otherwise.
    public var round: Int {
        guard case .planned = plan.result else { return rounds }
        guard case .running(let run) = phase else { return plannedRounds }
        return max(1, plan.intervals[run.segment].round)
    }

    /// The rounds of a format with planned rounds; 0 otherwise.
    public var plannedRounds: Int {
        if case .planned(let rounds) = plan.result { return rounds }
        return 0
    }

    /// The outputs of the current state, for start-up and for returning to the mode.
    public func currentOutputs(at now: Moment) -> [Effect] {
        [.display(display(at: now)), .leds(leds), .buzzer(.off), .sound(nil)]
    }

    /// What the display shows at `now`.
    public func display(at now: Moment) -> DisplayContent {
        switch phase {
        case .finished(let since, _, let pages, let pageLength):
            let page = max(0, (now - since).nanoseconds / pageLength.nanoseconds)
            return pages[Int(page) % pages.count]
        case .running(let run):
            let interval = plan.intervals[run.segment]
            let intoInterval = run.elapsed(at: now) - start(of: run.segment)
            let seconds = interval.countsUp ? Int(intoInterval.nanoseconds / 1_000_000_000) : run.displayedSeconds(at: now)
            if run.isPaused { return .time(seconds: seconds, blink: .colon) }
            if let until = flashUntil, now < until { return .tagged("r", rounds) }
            if let banner = interval.banner, intoInterval < Self.bannerLength { return banner }
            return .time(seconds: seconds)
        }
    }

    /// The LEDs of the current state: the interval's; once finished, `ready` for a program and
    /// none for the interval and workout modes (as they always did).
    public var leds: Set<StatusLED> {
        switch (phase, plan.result) {
        case (.running(let run), _): return plan.intervals[run.segment].leds
        case (.finished, .intervalWorkout), (.finished, .session): return []
        case (.finished, _): return [.ready]
        }
    }

    /// The next moment the run must be woken at, or nil when it waits for input only.
    public func nextDeadline(after now: Moment) -> Moment? {
        switch phase {
        case .running(let run):
            guard let next = run.nextDeadline(after: now) else { return nil }
            return flashUntil.map { min($0, next) } ?? next
        case .finished(let since, _, let pages, let pageLength):
            let confirmation = pendingRecord.map { _ in since + Self.doneConfirmation }
            guard pages.count > 1 else { return confirmation }
            let page = pageLength.nanoseconds
            let passed = max(0, (now - since).nanoseconds / page)
            let next = since + .nanoseconds((passed + 1) * page)
            return confirmation.map { min($0, next) } ?? next
        }
    }

    /// Whether `event` (a hand on the wall) counts a round now: what a coach's lock of the wall
    /// buttons leaves working, so athletes go on counting their rounds in a locked class.
    public func countsRound(_ event: ControlEvent) -> Bool {
        guard case .running(let run) = phase, !run.isPaused, !inLeadIn else { return false }
        switch event {
        case .pressed(let button), .released(let button):
            return (button == .start ? plan.start : plan.dismiss) == .countRound
        case .turned: return plan.knobCountsRounds
        case .held, .deadline, .command, .tapped: return false
        }
    }

    /// Reacts to one event at `now`.
    public mutating func handle(_ event: ControlEvent, at now: Moment) -> (effects: [Effect], outcome: Outcome) {
        // Anything already due is handled first, so an input never reorders cues.
        let overdue = event != .deadline && nextDeadline(after: now).map { $0 <= now } == true
        var effects = overdue ? advance(to: now) : []
        switch (event, phase) {
        case (.deadline, .finished(let since, _, _, _)) where now >= since + Self.doneConfirmation:
            effects += advance(to: now) + confirmDone()
        case (.deadline, _):
            effects += advance(to: now)
        case (.held(.dismiss), _):
            return (effects, .resets)
        case (.pressed, .finished):
            return (effects + confirmDone(), .resets)
        case (.released(.dismiss), .finished):
            effects += confirmDone()
        case (.pressed(.start), .running(var run)) where run.isPaused:
            run.resume(at: now)
            phase = .running(run)
            effects.append(.display(display(at: now)))
        case (.pressed(.dismiss), .running(let run)) where run.isPaused:
            return (effects, .resets)
        case (.pressed(let button), .running(var run)):
            switch inLeadIn ? .pause : (button == .start ? plan.start : plan.dismiss) {
            case .pause:
                run.pause(at: now)
                phase = .running(run)
                flashUntil = nil
                effects += [.display(display(at: now)), .sound(nil)]
            case .countRound:
                effects += count(1, at: now)
            case .finish:
                effects += finish(at: now, end: now, ranOut: false, pending: true)
            case .skipRest where plan.intervals[run.segment].isRest:
                run.skipSegment(at: now)
                phase = .running(run)
                effects += [.display(display(at: now)), .leds(leds), .sound(nil)]
            case .skipRest:
                run.pause(at: now)
                phase = .running(run)
                flashUntil = nil
                effects += [.display(display(at: now)), .sound(nil)]
            }
        case (.turned(let detents), .running(let run)) where plan.knobCountsRounds && !run.isPaused && !inLeadIn:
            effects += count(detents, at: now)
        default:
            break
        }
        return (effects, .stays)
    }

    /// Pauses the run on command (in the lead-in too); the kiosk has handled anything already due.
    public mutating func pause(at now: Moment) -> Result<[Effect], KioskRefusal> {
        guard case .running(var run) = phase else { return .failure(KioskRefusal("pause", "the run is over")) }
        guard !run.isPaused else { return .failure(KioskRefusal("pause", "already paused")) }
        run.pause(at: now)
        phase = .running(run)
        flashUntil = nil
        return .success([.display(display(at: now)), .sound(nil)])
    }

    /// Resumes a run paused by a command or a press.
    public mutating func resume(at now: Moment) -> Result<[Effect], KioskRefusal> {
        guard case .running(var run) = phase, run.isPaused else {
            return .failure(KioskRefusal("resume", "nothing is paused"))
        }
        run.resume(at: now)
        phase = .running(run)
        return .success([.display(display(at: now))])
    }

    /// How far from its class's start a run may have begun and still be that class's run (a
    /// station's clocks, a restart's re-anchoring); a run further off is another one.
    public static let classMatch: Duration = .milliseconds(500)

    /// Moves the run to its class's instants (`ClassTimeline`), so a station that missed a pause
    /// or was down catches up with the others; nothing changes when it is already there.
    /// Refused for a run that is not that class's: over, or begun more than `classMatch` away
    /// from the class's start.
    public mutating func follow(_ timeline: ClassTimeline, at now: Moment) -> Result<[Effect], KioskRefusal> {
        guard case .running(var run) = phase else { return .failure(KioskRefusal("follow", "the run is over")) }
        let leadIn = Duration.seconds(plan.leadInSeconds)
        if let problem = timeline.problem(leadIn: leadIn) { return .failure(KioskRefusal("follow", problem)) }
        let off = run.startedAt - (timeline.workBegins - leadIn)
        guard off <= Self.classMatch, off >= .zero - Self.classMatch else {
            return .failure(KioskRefusal("follow", "the run under way is not this class's"))
        }
        let timing = timeline.timing(total: run.total, leadIn: leadIn)
        guard timing != run.timing else { return .success([]) }
        run.follow(timing, at: now)
        phase = .running(run)
        flashUntil = nil
        if run.elapsed(at: now) < leadIn { workStartedAt = nil } else if workStartedAt == nil { workStartedAt = timeline.workBegins }
        return .success([.leds(leds), .sound(nil)] + advance(to: now))
    }

    /// Active time from the start to the beginning of interval `index`.
    private func start(of index: Int) -> Duration {
        index == 0 ? .zero : plan.intervalEnds[index - 1]
    }

    /// The record of a "done", once it is sure not to be the start of a hold.
    private mutating func confirmDone() -> [Effect] {
        guard let record = pendingRecord else { return [] }
        pendingRecord = nil
        return [.record(record)]
    }

    /// Adds `delta` to the rounds counted (never below 0) and shows the count for a second.
    private mutating func count(_ delta: Int, at now: Moment) -> [Effect] {
        rounds = max(0, rounds + delta)
        flashUntil = now + Self.bannerLength
        return [.display(display(at: now))]
    }

    private mutating func advance(to now: Moment) -> [Effect] {
        guard case .running(var run) = phase else { return [.display(display(at: now))] }
        if let until = flashUntil, now >= until { flashUntil = nil }
        let step = run.advance(to: now)
        if workStartedAt == nil, let end = run.end, run.elapsed(at: now) >= .seconds(plan.leadInSeconds) {
            workStartedAt = end - (run.total - .seconds(plan.leadInSeconds))
        }
        phase = .running(run)
        if let end = step.finishedAt {
            // The end's own call supersedes any cue due with it.
            return finish(at: now, end: end, ranOut: true)
        }
        var effects: [Effect] = [.display(display(at: now))]
        if step.segmentChanged { effects.append(.leds(leds)) }
        return effects + step.cueEffects
    }

    /// Ends the run at `end` (now, or when the clock ran out): the result, its call and its record.
    /// A `pending` record waits in `pendingRecord` instead (a "done").
    /// `ranOut`: the clock reached the plan's end (for-time: its cap) rather than a press of done.
    private mutating func finish(at now: Moment, end: Moment, ranOut: Bool, pending: Bool = false) -> [Effect] {
        let capped = ranOut && plan.result == .timed
        guard case .running(let run) = phase else { return [] }
        let active = run.elapsed(at: end) - .seconds(plan.leadInSeconds)
        let duration = end - (workStartedAt ?? end)
        var record = WorkoutRecord(kind: .program, sets: rounds, duration: duration, preset: plan.name, endedAt: end)
        var pages: [DisplayContent] = [.time(seconds: 0)]
        var pageLength: Duration = .seconds(1)
        switch plan.result {
        case .planned(let planned):
            record.sets = planned
            record.score = ProgramScore(rounds: planned)
        case .counted:
            record.score = ProgramScore(rounds: rounds)
            pages = [.time(seconds: 0), .tagged("r", rounds)]
        case .timed where capped:
            record.score = ProgramScore(rounds: rounds, capped: true)
            pages = [DisplayContent(text: "CAP "), .tagged("r", rounds)]
        case .timed:
            // The time is what the display shows, rounded down: the record's duration is that
            // same time, so the history's duration and score agree (not 0:13 beside 0:12).
            let shown = Duration.seconds(max(0, active.components.seconds))
            record.duration = shown
            record.score = ProgramScore(rounds: rounds, time: shown)
            pages = [.time(seconds: Int(shown.components.seconds))]
        case .intervalWorkout(let sets):
            record = WorkoutRecord(kind: .interval, sets: sets, duration: duration, endedAt: end)
        case .session(let preset):
            record = WorkoutRecord(
                kind: .workout, sets: preset.exercises.count, duration: duration, calories: preset.calories,
                exercises: preset.exercises, preset: preset.name, endedAt: end)
            pages = [.time(seconds: Int(duration.nanoseconds / 1_000_000_000)),
                     .tagged("E", preset.exercises.count), .tagged("C", preset.calories)]
            pageLength = .seconds(2)
        }
        phase = .finished(since: end, duration: duration, pages: pages, pageLength: pageLength)
        score = record.score
        flashUntil = nil
        var effects: [Effect] = [.display(display(at: now)), .leds(leds)]
        // A run that ended long ago (the controller was down) is recorded silently.
        if now - end <= SegmentRun.cueGrace {
            effects += [.sound(ranOut ? plan.endSound : .complete), .buzzer(.longBeep)]
        } else {
            effects += [.sound(nil), .buzzer(.off)]
        }
        if pending {
            pendingRecord = record
            return effects
        }
        return effects + [.record(record)]
    }
}
