import Testing
@testable import GymTimerCore

/// Thousands of seeded random event sequences through interval and workout mode (and the whole
/// kiosk), checking what must always hold. Deadlines are handled exactly when due, as the
/// runtime does; inputs come at random instants in between.
@Suite struct ModePropertyTests {
    /// Picks the next event: the machine's deadline if it falls within a random gap, else an input.
    static func nextEvent<M: DrivenMachine>(
        _ machine: M, _ rng: inout SplitMix64, now: inout Moment, maxGapMs: UInt64, inputs: [ControlEvent]
    ) -> ControlEvent {
        let gap = Duration.milliseconds(Int64(rng.next() % maxGapMs))
        if let due = machine.nextDeadline(after: now), due <= now + gap {
            check(due >= now, "deadlines are never in the past")
            now = due
            return .deadline
        }
        now = now + gap
        let event = inputs[Int(rng.next() % UInt64(inputs.count))]
        if case .turned = event { return .turned(Int(rng.next() % 7) - 3) }
        return event
    }

    static let inputs: [ControlEvent] = [
        .pressed(.start), .pressed(.start), .released(.start), .pressed(.dismiss), .released(.dismiss),
        .turned(0), .turned(0), .held(.dismiss),
    ]

    @Test func intervalInvariantsHoldForThousandsOfRandomSequences() {
        var completions = 0
        for seed in 0..<1000 as Range<UInt64> { completions += checkInterval(seed: seed) }
        #expect(completions > 100, "enough sequences reach the end to mean something (\(completions))")
    }

    /// Returns how many workouts completed.
    func checkInterval(seed: UInt64) -> Int {
        var rng = SplitMix64(seed: seed)
        let settings = IntervalSettings(
            phaseSeconds: 5 + Int(rng.next() % 10), sets: 1 + Int(rng.next() % 3),
            startWith: rng.next() % 2 == 0 ? .low : .high,
            warningSeconds: Int(rng.next() % 6), announceSeconds: Int(rng.next() % 12))
        var mode = IntervalMode(settings: settings)
        var now = Moment.origin
        var startedAt = Moment.origin, total = Duration.zero, pauses = Duration.zero, pausedSince: Moment?
        var expectedCues: [Sound] = [], givenCues: [Sound] = []
        var shownInPhase: Int?
        var completions = 0, records = 0
        for _ in 0..<400 {
            let event = Self.nextEvent(mode, &rng, now: &now, maxGapMs: 6_000, inputs: Self.inputs)
            let before = mode.state
            let effects = mode.handle(event, at: now)
            let after = mode.state
            switch (before, after) {
            case (.idle, .running(let run)):
                startedAt = now; total = run.total; pauses = .zero; pausedSince = nil
                expectedCues = run.cues.compactMap(\.sound); givenCues = []; shownInPhase = nil
            case (.running(let b), .running(let a)):
                if !b.isPaused && a.isPaused { pausedSince = now }
                if b.isPaused && !a.isPaused, let since = pausedSince { pauses += now - since; pausedSince = nil }
                if a.segment != b.segment { shownInPhase = nil }
            default:
                break
            }
            for effect in effects {
                switch effect {
                case .sound(let sound?) where sound != .complete:
                    givenCues.append(sound)
                case .record(let record):
                    records += 1
                    check(record.kind == .interval && record.sets == mode.sets)
                    check(record.duration == total + pauses, "phases add up to sets × 2 × phase plus pauses (seed \(seed))")
                    check(record.endedAt == now)
                case .leds(let lit):
                    if case .running = after { check(lit == [.low] || lit == [.high], "exactly one of low/high (seed \(seed))") }
                case .display(let content):
                    guard case .running = before, case .running = after else { break }
                    let seconds = Int(content.text.prefix(2))! * 60 + Int(content.text.suffix(2))!
                    if let previous = shownInPhase {
                        check(seconds <= previous, "the display never goes up within a phase (seed \(seed))")
                    }
                    shownInPhase = seconds
                default:
                    break
                }
            }
            if case .running = before, after == .complete {
                completions += 1
                check(givenCues == expectedCues, "every cue exactly once, in order (seed \(seed))")
                check(now == startedAt + total + pauses, "complete exactly at the end (seed \(seed))")
                check(effects.filter { $0 == .sound(.complete) }.count == 1)
            } else {
                check(!effects.contains { if case .record = $0 { true } else { false } }, "records only on completion")
            }
            check(Array(givenCues.prefix(expectedCues.count)) == Array(expectedCues.prefix(givenCues.count)),
                    "cues come in schedule order, never repeated (seed \(seed))")
        }
        check(records == completions, "exactly one record per completed workout (seed \(seed))")
        return completions
    }

    @Test func workoutInvariantsHoldForThousandsOfRandomSequences() {
        var completions = 0
        for seed in 0..<1000 as Range<UInt64> { completions += checkWorkout(seed: seed) }
        #expect(completions > 100, "enough sessions reach the end to mean something (\(completions))")
    }

    func checkWorkout(seed: UInt64) -> Int {
        var rng = SplitMix64(seed: seed)
        let count = 1 + Int(rng.next() % 4)
        let preset = WorkoutPreset(
            name: "p\(seed)", exerciseSeconds: 3 + Int(rng.next() % 10), restSeconds: Int(rng.next() % 6),
            calories: Int(rng.next() % 500), exercises: (0..<count).map { "e\($0)" })
        var mode = WorkoutMode(presets: [preset, .fullBody], warningSeconds: Int(rng.next() % 5))
        var now = Moment.origin
        var startedAt = Moment.origin, total = Duration.zero, pauses = Duration.zero, skipped = Duration.zero
        var pausedSince: Moment?
        var cuesExpected = 0, cuesGiven = 0, cuesSkipped = 0
        var completions = 0, records = 0
        for _ in 0..<300 {
            let event = Self.nextEvent(mode, &rng, now: &now, maxGapMs: 5_000, inputs: Self.inputs)
            let modeBefore = mode
            let before = mode.state
            let effects = mode.handle(event, at: now)
            let after = mode.state
            switch (before, after) {
            case (.idle, .running(let run)):
                startedAt = now; total = run.total; pauses = .zero; skipped = .zero; pausedSince = nil
                cuesExpected = run.cues.count; cuesGiven = 0; cuesSkipped = 0
            case (.running(let b), .running(let a)):
                if !b.isPaused && a.isPaused { pausedSince = now }
                if b.isPaused && !a.isPaused, let since = pausedSince { pauses += now - since; pausedSince = nil }
                if event == .pressed(.dismiss), !b.isPaused, case .rest = modeBefore.segment(of: b) {
                    check(a.segment == b.segment + 1, "dismiss in a rest skips exactly that rest")
                    skipped += a.elapsed(at: now) - b.elapsed(at: now)
                    cuesSkipped += a.nextCue - b.nextCue
                }
            default:
                break
            }
            for effect in effects {
                switch effect {
                case .sound(let sound?) where sound == .warning:
                    cuesGiven += 1
                case .record(let record):
                    records += 1
                    check(record.kind == .workout && record.preset == mode.preset.name)
                    check(record.sets == preset.exercises.count && record.exercises == preset.exercises)
                    check(record.duration == now - startedAt)
                    check(record.duration == total - skipped + pauses, "active time + pauses − skipped rests (seed \(seed))")
                default:
                    break
                }
            }
            if case .running = before, case .complete = after {
                completions += 1
                check(cuesGiven + cuesSkipped == cuesExpected, "every cue given once or skipped with its rest (seed \(seed))")
            } else {
                check(!effects.contains { if case .record = $0 { true } else { false } }, "records only on completion")
            }
            check(cuesGiven + cuesSkipped <= cuesExpected, "never a cue twice (seed \(seed))")
        }
        check(records == completions, "exactly one record per completed session (seed \(seed))")
        return completions
    }

    /// The whole kiosk, with holds of start, menus and restarts mixed in.
    @Test func kioskInvariantsHoldForThousandsOfRandomSequences() {
        for seed in 0..<500 as Range<UInt64> { checkKiosk(seed: seed) }
    }

    func checkKiosk(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var kiosk = Kiosk(settings: KioskSettings(
            rest: RestSettings(defaultSeconds: 15, alarmTimeoutSeconds: 10),
            startMode: [StartMode.rest, .interval, .workout][Int(rng.next() % 3)],
            interval: IntervalSettings(phaseSeconds: 5, sets: 2),
            workout: WorkoutSettings(presets: [
                WorkoutPreset(name: "a", exerciseSeconds: 5, restSeconds: 3, calories: 10, exercises: ["x", "y"]), .fullBody,
            ], presetName: "a")))
        var now = Moment.origin
        _ = kiosk.start(at: now)
        let inputs = Self.inputs + [.held(.start), .held(.start), .turned(0)]
        for _ in 0..<300 {
            if rng.next() % 50 == 0 {
                // A restart: rebuilt from the stored value, possibly long after.
                now = now + .milliseconds(Int64(rng.next() % 120_000))
                _ = kiosk.start(at: now)
                _ = kiosk.handle(.deadline, at: now)
                if let due = kiosk.nextDeadline(after: now) { check(due > now, "caught up on restart (seed \(seed))") }
                continue
            }
            let event = Self.nextEvent(kiosk, &rng, now: &now, maxGapMs: 4_000, inputs: inputs)
            let effects = kiosk.handle(event, at: now)
            check(effects.filter { if case .record = $0 { true } else { false } }.count <= 1, "at most one record at a time")
            for case .leds(let lit) in effects {
                switch kiosk.mode {
                case .rest: check(lit.count == 1, "rest mode lights exactly one LED (seed \(seed))")
                case .menu: check(lit.isEmpty)
                default: check(lit.count <= 1)
                }
            }
        }
    }
}

/// A cheap `#expect` for hot loops: records an issue only when the condition fails.
func check(_ condition: Bool, _ message: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    if !condition { Issue.record(Comment(rawValue: message()), sourceLocation: sourceLocation) }
}
