/// HIIT (behaviour.md, "Interval mode"): `sets` sets of two phases of `phaseSeconds`, the first
/// of each set `startWith`, the second the other intensity. idle → running ⇄ paused → complete.
///
/// Idle and its knob are this mode's own; from start to the result the workout is a
/// `ProgramPlan` (one interval per phase, with its cues) run by the program engine
/// (`ProgramRun`), like every program, so the countdown, the phase and every cue are read off
/// one deadline and each cue is given at most once.
///
/// Decisions where behaviour.md is silent:
/// * dismiss while running pauses (a second dismiss then resets), so a stray press never throws
///   the workout away;
/// * the knob in idle changes the phase length by `knobStepSeconds` within `phaseRange`; it is
///   ignored while running, paused or complete;
/// * a warning or announcement that would fall at or before the start of its phase or set is left out;
/// * pausing stops any cue that is playing; resuming does not replay it;
/// * complete lights no LED; holding dismiss resets to idle (no record) like paused+dismiss.
public struct IntervalMode: ProgramHost, Hashable, Sendable, Codable {
    /// The state as the table in behaviour.md names it, read off the engine.
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
    /// The workout on the program engine; nil in idle.
    public var run: ProgramRun?
    /// The length of each phase of the next workout, set with the knob.
    public internal(set) var phaseSeconds: Int

    public init(settings: IntervalSettings) {
        self.settings = settings
        self.phaseSeconds = max(1, settings.phaseSeconds)
    }

    public var state: State {
        switch run?.phase {
        case nil: return .idle
        case .running(let segments): return .running(segments)
        case .finished: return .complete
        }
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

    /// The workout as a plan for the program engine: one interval per phase, its LED showing the
    /// intensity; start and dismiss pause.
    public func plan() -> ProgramPlan {
        ProgramPlan(
            name: "interval", leadInSeconds: 0,
            intervals: (0..<(2 * sets)).map { ProgramPlan.Interval(seconds: phaseSeconds, leds: [led(ofPhase: $0)]) },
            cues: schedule().cues, start: .pause, dismiss: .pause, knobCountsRounds: false,
            result: .intervalWorkout(sets: sets), endSound: .complete)
    }

    public func idleOutputs() -> [Effect] {
        [.display(.time(seconds: phaseSeconds)), .leds([.ready]), .buzzer(.off), .sound(nil)]
    }

    /// Changes the phase length by `knobStepSeconds` a detent, within `phaseRange`.
    public mutating func turnInIdle(_ detents: Int) -> [Effect] {
        let range = Self.phaseRange
        phaseSeconds = min(max(phaseSeconds + detents * Self.knobStepSeconds, range.lowerBound), range.upperBound)
        return [.display(.time(seconds: phaseSeconds))]
    }
}
