/// A guided session (behaviour.md, "Workout mode"): the exercises of a `WorkoutPreset`, each
/// followed by a rest except the last. idle → running ⇄ paused → complete → idle.
///
/// Idle and its preset choice are this mode's own; from start to the summary the session is a
/// `ProgramPlan` (one interval per exercise and rest) run by the program engine (`ProgramRun`),
/// like every program, so the countdown and the cues are read off one deadline.
///
/// Decisions where behaviour.md is silent:
/// * idle shows the selected preset as `P  1`, `P  2`, … (the display cannot spell most names);
///   the knob moves between presets without wrapping;
/// * LED `high` during an exercise, `low` during a rest, `ready` in idle, none when complete;
/// * audio `warning` `warningSeconds` before every exercise and rest ends (the kiosk passes the
///   interval `warning_seconds`), when that is inside the segment;
/// * dismiss during an exercise pauses (like interval mode); dismiss while paused abandons the
///   session to idle with no record; holding dismiss does the same;
/// * the record's duration and the total time shown are from start to end, pauses and rests
///   included; a skipped rest shortens them;
/// * complete cycles `MM:SS` total, `E  8` (exercises done), `C150` (calories) every 2 s until
///   start or dismiss returns to idle.
public struct WorkoutMode: ProgramHost, Hashable, Sendable, Codable {
    /// The state as the table in behaviour.md names it, read off the engine.
    public enum State: Hashable, Sendable, Codable {
        /// Waiting for start; the display shows the selected preset.
        case idle
        /// Running or paused (see `SegmentRun.isPaused`).
        case running(SegmentRun)
        /// The session ended at `since`; the display cycles its summary.
        case complete(since: Moment, total: Duration, exercises: Int)
    }

    /// What a segment of the run is.
    public enum Segment: Hashable, Sendable {
        case exercise(Int)
        case rest(after: Int)
    }

    /// How long each page of the completion summary stays on.
    public static let summaryPage: Duration = .seconds(2)

    public let presets: [WorkoutPreset]
    public let warningSeconds: Int
    /// The index in `presets` of the preset a start runs.
    public private(set) var presetIndex: Int
    /// The session on the program engine; nil in idle.
    public var run: ProgramRun?

    public init(presets: [WorkoutPreset], presetIndex: Int = 0, warningSeconds: Int = 3) {
        self.presets = presets.isEmpty ? [.fullBody] : presets
        self.presetIndex = min(max(presetIndex, 0), self.presets.count - 1)
        self.warningSeconds = warningSeconds
    }

    /// The mode for the `[workout]` settings, with their selected preset.
    public init(settings: WorkoutSettings, warningSeconds: Int = 3) {
        let index = settings.presets.firstIndex { $0.name == settings.presetName } ?? 0
        self.init(presets: settings.presets, presetIndex: index, warningSeconds: warningSeconds)
    }

    public var preset: WorkoutPreset { presets[presetIndex] }

    public var state: State {
        switch run?.phase {
        case nil: return .idle
        case .running(let segments): return .running(segments)
        case .finished(let since, let duration, _, _):
            return .complete(since: since, total: duration, exercises: preset.exercises.count)
        }
    }

    /// How preset `index` is shown: `P  1`, `P  2`, …
    public static func label(forPreset index: Int) -> DisplayContent {
        let number = String(index + 1)
        return DisplayContent(text: "P" + String(repeating: " ", count: max(0, 3 - number.count)) + number)
    }

    /// The segments of a session of `preset`, in order (no rest of 0 s, none after the last exercise).
    public static func segments(of preset: WorkoutPreset) -> [Segment] {
        var segments: [Segment] = []
        for index in preset.exercises.indices {
            segments.append(.exercise(index))
            if index + 1 < preset.exercises.count && preset.restSeconds > 0 { segments.append(.rest(after: index)) }
        }
        return segments
    }

    /// The session of the selected preset as a plan for the program engine: LED `high` during an
    /// exercise and `low` during a rest, a `warning` before each ends, dismiss skipping a rest.
    public func plan() -> ProgramPlan {
        var builder = ProgramPlan.Builder(leadInSeconds: 0)
        for segment in Self.segments(of: preset) {
            let isRest: Bool
            switch segment {
            case .exercise: isRest = false
            case .rest: isRest = true
            }
            let seconds = max(1, isRest ? preset.restSeconds : preset.exerciseSeconds)
            builder.append(
                .init(seconds: seconds, leds: isRest ? [.low] : [.high], isRest: isRest),
                endCall: (early: warningSeconds, sound: .warning))
        }
        builder.dismiss = .skipRest
        builder.result = .session(preset)
        return builder.plan(name: preset.name)
    }

    /// The same mode with preset `index` selected (only changes anything in idle).
    public func selecting(preset index: Int) -> WorkoutMode {
        var copy = self
        if isIdle { copy.presetIndex = min(max(index, 0), presets.count - 1) }
        return copy
    }

    public func idleOutputs() -> [Effect] {
        [.display(Self.label(forPreset: presetIndex)), .leds([.ready]), .buzzer(.off), .sound(nil)]
    }

    /// Moves between the presets, without wrapping.
    public mutating func turnInIdle(_ detents: Int) -> [Effect] {
        presetIndex = min(max(presetIndex + detents, 0), presets.count - 1)
        return [.display(Self.label(forPreset: presetIndex))]
    }

    /// The segment the run is in.
    public func segment(of run: SegmentRun) -> Segment {
        let segments = Self.segments(of: preset)
        return segments[min(run.segment, segments.count - 1)]
    }
}
