/// A guided session (behaviour.md, "Workout mode"): the exercises of a `WorkoutPreset`, each
/// followed by a rest except the last. idle → running ⇄ paused → complete → idle.
///
/// A pure state machine like `RestMode`; the session is one `SegmentRun` whose segments are the
/// exercises and rests, so the countdown and the cues are read off one deadline.
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
public struct WorkoutMode: Hashable, Sendable, Codable {
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
    public private(set) var state: State = .idle

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

    public var isIdle: Bool { state == .idle }

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

    /// The same mode with preset `index` selected (only changes anything in idle).
    public func selecting(preset index: Int) -> WorkoutMode {
        var copy = self
        if isIdle { copy.presetIndex = min(max(index, 0), presets.count - 1) }
        return copy
    }

    /// The outputs of the current state, for start-up and for returning to this mode.
    public func currentOutputs(at now: Moment) -> [Effect] {
        switch state {
        case .idle:
            return [.display(Self.label(forPreset: presetIndex)), .leds([.ready]), .buzzer(.off), .sound(nil)]
        case .running(let run):
            return [.display(run.display(at: now)), .leds(leds(for: run)), .buzzer(.off), .sound(nil)]
        case .complete:
            return [.display(summaryDisplay(at: now)), .leds([]), .buzzer(.off), .sound(nil)]
        }
    }

    /// The next moment this mode must be woken at, or nil when it waits for input only.
    public func nextDeadline(after now: Moment) -> Moment? {
        switch state {
        case .idle:
            return nil
        case .running(let run):
            return run.nextDeadline(after: now)
        case .complete(let since, _, _):
            let page = Self.summaryPage.nanoseconds
            let pages = max(0, (now - since).nanoseconds / page)
            return since + .nanoseconds((pages + 1) * page)
        }
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
            let segments = Self.segments(of: preset)
            var ends: [Duration] = []
            var cues: [SegmentRun.Cue] = []
            var offset = Duration.zero
            for segment in segments {
                let seconds = length(of: segment)
                offset += .seconds(seconds)
                ends.append(offset)
                if warningSeconds > 0 && warningSeconds < seconds {
                    cues.append(.init(at: offset - .seconds(warningSeconds), sound: .warning))
                }
            }
            state = .running(SegmentRun(segmentEnds: ends, cues: cues, startingAt: now))
            effects += currentOutputs(at: now)
        case (.pressed(.start), .running(var run)) where run.isPaused:
            run.resume(at: now)
            state = .running(run)
            effects.append(.display(run.display(at: now)))
        case (.pressed(.dismiss), .running(let run)) where run.isPaused:
            effects += reset(at: now)
        case (.pressed(.dismiss), .running(var run)) where isRest(run):
            run.skipSegment(at: now)
            state = .running(run)
            effects += [.display(run.display(at: now)), .leds(leds(for: run)), .sound(nil)]
        case (.held(.dismiss), .running), (.held(.dismiss), .complete), (.pressed(_), .complete):
            effects += reset(at: now)
        case (.pressed(_), .running(var run)):
            // start, or dismiss during an exercise, pauses.
            run.pause(at: now)
            state = .running(run)
            effects += [.display(run.display(at: now)), .sound(nil)]
        case (.turned(let detents), .idle):
            presetIndex = min(max(presetIndex + detents, 0), presets.count - 1)
            effects.append(.display(Self.label(forPreset: presetIndex)))
        default:
            break
        }
        return effects
    }

    /// Back to idle, abandoning any session in progress (nothing is recorded).
    public mutating func reset(at now: Moment) -> [Effect] {
        state = .idle
        return currentOutputs(at: now)
    }

    /// The segment the run is in.
    public func segment(of run: SegmentRun) -> Segment {
        let segments = Self.segments(of: preset)
        return segments[min(run.segment, segments.count - 1)]
    }

    private func length(of segment: Segment) -> Int {
        switch segment {
        case .exercise: return max(1, preset.exerciseSeconds)
        case .rest: return max(1, preset.restSeconds)
        }
    }

    private func isRest(_ run: SegmentRun) -> Bool {
        if case .rest = segment(of: run) { return true }
        return false
    }

    private func leds(for run: SegmentRun) -> Set<StatusLED> { isRest(run) ? [.low] : [.high] }


    /// The summary page shown at `now` while complete: total time, exercises done, calories.
    private func summaryDisplay(at now: Moment) -> DisplayContent {
        guard case .complete(let since, let total, let exercises) = state else { return .blank }
        let page = max(0, (now - since).nanoseconds / Self.summaryPage.nanoseconds) % 3
        switch page {
        case 0: return .time(seconds: Int(total.nanoseconds / 1_000_000_000))
        case 1: return DisplayContent.tagged("E", exercises)
        default: return DisplayContent.tagged("C", preset.calories)
        }
    }


    private mutating func advance(to now: Moment) -> [Effect] {
        switch state {
        case .idle:
            return []
        case .complete:
            return [.display(summaryDisplay(at: now))]
        case .running(var run):
            let step = run.advance(to: now)
            if let end = step.finishedAt {
                let total = end - run.startedAt
                state = .complete(since: end, total: total, exercises: preset.exercises.count)
                var effects: [Effect] = [.display(summaryDisplay(at: now)), .leds([])]
                // A session that ended long ago (the controller was down) is recorded silently.
                if now - end <= SegmentRun.cueGrace {
                    effects += [.sound(.complete), .buzzer(.longBeep)]
                } else {
                    effects += [.sound(nil), .buzzer(.off)]
                }
                effects.append(.record(WorkoutRecord(
                    kind: .workout, sets: preset.exercises.count, duration: total, calories: preset.calories,
                    exercises: preset.exercises, preset: preset.name, endedAt: end)))
                return effects
            }
            state = .running(run)
            var effects: [Effect] = [.display(run.display(at: now))]
            if step.segmentChanged { effects.append(.leds(leds(for: run))) }
            effects += step.cueEffects
            return effects
        }
    }
}
