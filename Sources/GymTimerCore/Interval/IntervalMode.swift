/// HIIT (behaviour.md, "Interval mode"): `sets` sets of two phases of `phaseSeconds`, the first
/// of each set `startWith`, the second the other intensity. idle → running ⇄ paused → complete.
///
/// A pure state machine like `RestMode`. The whole workout is one `SegmentRun` (one segment per
/// phase), so the countdown, the phase and every cue are read off one deadline, and each cue is
/// given at most once because the run only moves forward through its precomputed cue list.
///
/// Decisions where behaviour.md is silent:
/// * dismiss while running pauses (a second dismiss then resets), so a stray press never throws
///   the workout away;
/// * the knob in idle changes the phase length by `knobStepSeconds` within `phaseRange`; it is
///   ignored while running, paused or complete;
/// * a warning or announcement that would fall at or before the start of its phase or set is left out;
/// * pausing stops any cue that is playing; resuming does not replay it;
/// * complete lights no LED; holding dismiss resets to idle (no record) like paused+dismiss.
public struct IntervalMode: Hashable, Sendable, Codable {
    public enum State: Hashable, Sendable, Codable {
        /// Waiting for start; the display shows the phase duration.
        case idle
        /// Running or paused (see `SegmentRun.isPaused`); segment k is phase k.
        case running(SegmentRun)
        /// The last phase of the last set has ended.
        case complete
    }

    /// The phase lengths the knob can choose.
    public static let phaseRange = 5...600
    public static let knobStepSeconds = 5

    public let settings: IntervalSettings
    public private(set) var state: State = .idle
    /// The length of each phase of the next workout, set with the knob.
    public private(set) var phaseSeconds: Int

    public init(settings: IntervalSettings) {
        self.settings = settings
        self.phaseSeconds = max(1, settings.phaseSeconds)
    }

    /// Number of sets of a workout (at least one).
    public var sets: Int { max(1, settings.sets) }

    /// The intensity of phase `index` (0-based over the whole workout).
    public func intensity(ofPhase index: Int) -> IntensityPhase {
        index % 2 == 0 ? settings.startWith : settings.startWith.other
    }

    /// The LED that shows phase `index`.
    public func led(ofPhase index: Int) -> StatusLED { intensity(ofPhase: index) == .low ? .low : .high }

    /// The cue schedule of a workout with the current phase length: the warning before the first
    /// phase of each set ends, and the announcement before each set ends, by active time.
    public func schedule() -> (segmentEnds: [Duration], cues: [SegmentRun.Cue]) {
        let phase = Duration.seconds(phaseSeconds)
        let ends = (1...(2 * sets)).map { phase * $0 }
        var cues: [SegmentRun.Cue] = []
        for set in 1...sets {
            let firstPhaseEnd = ends[2 * set - 2], setEnd = ends[2 * set - 1]
            if settings.warningSeconds > 0 && settings.warningSeconds < phaseSeconds {
                cues.append(.init(at: firstPhaseEnd - .seconds(settings.warningSeconds), sound: .warning))
            }
            if settings.announceSeconds > 0 && settings.announceSeconds < 2 * phaseSeconds {
                cues.append(.init(at: setEnd - .seconds(settings.announceSeconds), sound: .setCompleting(set)))
            }
        }
        return (ends, cues)
    }

    /// The outputs of the current state, for start-up and for returning to this mode.
    public func currentOutputs(at now: Moment) -> [Effect] {
        switch state {
        case .idle:
            return [.display(.time(seconds: phaseSeconds)), .leds([.ready]), .buzzer(.off), .sound(nil)]
        case .running(let run):
            return [.display(run.display(at: now)), .leds([led(ofPhase: run.segment)]), .buzzer(.off), .sound(nil)]
        case .complete:
            return [.display(.time(seconds: 0)), .leds([]), .buzzer(.off), .sound(nil)]
        }
    }

    public var isIdle: Bool { state == .idle }

    /// The next moment this mode must be woken at, or nil when it waits for input only.
    public func nextDeadline(after now: Moment) -> Moment? {
        if case .running(let run) = state { return run.nextDeadline(after: now) }
        return nil
    }

    /// Reacts to one event at `now`.
    public mutating func handle(_ event: ControlEvent, at now: Moment) -> [Effect] {
        // Anything already due is handled first, so an input never reorders cues.
        let overdue = event != .deadline && nextDeadline(after: now).map { $0 <= now } == true
        var effects = overdue ? advance(to: now) : []
        switch (event, state) {
        case (.deadline, _):
            effects += advance(to: now)
        case (.pressed(.start), .idle):
            let (ends, cues) = schedule()
            state = .running(SegmentRun(segmentEnds: ends, cues: cues, startingAt: now))
            effects += currentOutputs(at: now)
        case (.pressed(.start), .running(var run)) where run.isPaused:
            run.resume(at: now)
            state = .running(run)
            effects.append(.display(run.display(at: now)))
        case (.pressed(.dismiss), .running(let run)) where run.isPaused:
            effects += reset(at: now)
        case (.held(.dismiss), .running), (.held(.dismiss), .complete), (.pressed(_), .complete):
            effects += reset(at: now)
        case (.pressed(_), .running(var run)):
            // start or dismiss while running pauses.
            run.pause(at: now)
            state = .running(run)
            effects += [.display(run.display(at: now)), .sound(nil)]
        case (.turned(let detents), .idle):
            let range = Self.phaseRange
            phaseSeconds = min(max(phaseSeconds + detents * Self.knobStepSeconds, range.lowerBound), range.upperBound)
            effects.append(.display(.time(seconds: phaseSeconds)))
        default:
            break
        }
        return effects
    }

    /// Back to idle, dropping any workout in progress (nothing is recorded).
    public mutating func reset(at now: Moment) -> [Effect] {
        state = .idle
        return currentOutputs(at: now)
    }


    private mutating func advance(to now: Moment) -> [Effect] {
        guard case .running(var run) = state else { return [] }
        let step = run.advance(to: now)
        if let end = step.finishedAt {
            state = .complete
            var effects: [Effect] = [.display(.time(seconds: 0)), .leds([])]
            // A workout that ended long ago (the controller was down) is recorded silently.
            if now - end <= SegmentRun.cueGrace {
                effects += [.sound(.complete), .buzzer(.longBeep)]
            } else {
                effects += [.sound(nil), .buzzer(.off)]
            }
            effects.append(.record(WorkoutRecord(kind: .interval, sets: sets, duration: end - run.startedAt, endedAt: end)))
            return effects
        }
        state = .running(run)
        var effects: [Effect] = [.display(run.display(at: now))]
        if step.segmentChanged { effects.append(.leds([led(ofPhase: run.segment)])) }
        effects += step.cueEffects
        return effects
    }
}
