/// A run of back-to-back timed segments (interval phases, exercises and rests) against ONE
/// monotonic deadline: the moment the whole run ends if nothing pauses it.
///
/// Everything else is read off that deadline. The active time elapsed is `total - (end - now)`,
/// the current segment is the one that elapsed time falls in, and each segment's countdown ends
/// at `end - (total - segmentEnd)`. Pausing stores the active time left; resuming sets
/// `end = now + left`, so the run continues exactly where it stopped.
///
/// Cues are a precomputed list sorted by their offset in active time, and `nextCue` indexes the
/// first one not yet given. Advancing only ever moves that index forward, so a cue can be given
/// at most once, and any cue the clock passes is either given or deliberately dropped as stale
/// (more than `cueGrace` late, e.g. after a restart) — never repeated, never left behind.
public struct SegmentRun: Hashable, Sendable, Codable {
    /// A sound, or a buzzer pattern, due at an offset of active time from the start of the run.
    public struct Cue: Hashable, Sendable, Codable {
        public var at: Duration
        public var sound: Sound?
        /// A buzzer pattern given with the cue (the 3-2-1 beeps of a program); nil for none.
        public var buzzer: BuzzerPattern?

        public init(at: Duration, sound: Sound) {
            self.at = at
            self.sound = sound
        }

        public init(at: Duration, buzzer: BuzzerPattern) {
            self.at = at
            self.buzzer = buzzer
        }

        /// The effects that give this cue.
        public var effects: [Effect] {
            (sound.map { [Effect.sound($0)] } ?? []) + (buzzer.map { [Effect.buzzer($0)] } ?? [])
        }
    }

    /// Whether the run is going and when it ends, or paused with how much is left.
    public enum Timing: Hashable, Sendable, Codable {
        case running(end: Moment)
        case paused(remaining: Duration)
    }

    /// What one call of `advance(to:)` found.
    public struct Step: Hashable, Sendable {
        /// Cues that fell due, in order (stale ones left out).
        public var cues: [Cue] = []

        /// The effects of those cues, in order.
        public var cueEffects: [Effect] { cues.flatMap(\.effects) }
        /// The current segment changed (and the run has not finished).
        public var segmentChanged = false
        /// The moment the run ended, if it has now ended.
        public var finishedAt: Moment?
    }

    /// A cue (or the completion) more than this late is stale: it is skipped silently. A loop that
    /// wakes a little late still gives it; a controller that restarts long after does not.
    public static let cueGrace: Duration = .seconds(1)

    /// Where each segment ends, as offsets of active time from the start; strictly increasing.
    public let segmentEnds: [Duration]
    /// Sorted by `at` (ties keep their given order).
    public let cues: [Cue]
    /// When the run was started (for the record's duration, which includes pauses).
    public let startedAt: Moment
    /// The segment whose outputs are shown.
    public internal(set) var segment = 0
    /// The index in `cues` of the first cue not yet given or skipped.
    public internal(set) var nextCue = 0
    public internal(set) var timing: Timing

    /// Starts a run at `now`. `segmentEnds` must be non-empty and strictly increasing.
    public init(segmentEnds: [Duration], cues: [Cue], startingAt now: Moment) {
        precondition(!segmentEnds.isEmpty, "a run has at least one segment")
        self.segmentEnds = segmentEnds
        // A stable sort: the index breaks ties.
        self.cues = cues.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        self.startedAt = now
        self.timing = .running(end: now + segmentEnds[segmentEnds.count - 1])
    }

    /// Total active time of the run.
    public var total: Duration { segmentEnds[segmentEnds.count - 1] }

    public var isPaused: Bool {
        if case .paused = timing { return true }
        return false
    }

    /// Active time left in the whole run at `now`, never negative.
    public func remainingTotal(at now: Moment) -> Duration {
        switch timing {
        case .running(let end): return now >= end ? .zero : end - now
        case .paused(let remaining): return remaining
        }
    }

    /// Active time elapsed since the start at `now`.
    public func elapsed(at now: Moment) -> Duration { total - remainingTotal(at: now) }

    /// The countdown of the current segment while running (nil while paused).
    public var segmentCountdown: Countdown? {
        guard case .running(let end) = timing else { return nil }
        return Countdown(deadline: moment(of: segmentEnds[segment], end: end))
    }

    /// What the display shows while this run is on: the countdown, its colon blinking while paused.
    public func display(at now: Moment) -> DisplayContent {
        .time(seconds: displayedSeconds(at: now), blink: isPaused ? .colon : .none)
    }

    /// The seconds the current segment shows at `now`: its remaining time rounded up.
    public func displayedSeconds(at now: Moment) -> Int {
        if let countdown = segmentCountdown { return countdown.displayedSeconds(at: now) }
        let left = segmentEnds[segment] - elapsed(at: now)
        return Countdown(from: .origin, lasting: max(left, .zero)).displayedSeconds(at: .origin)
    }

    /// The moment the run ends while running.
    public var end: Moment? {
        if case .running(let end) = timing { return end }
        return nil
    }

    /// The next moment something happens (segment end, second boundary, cue); nil while paused.
    /// At or before `now` when something is overdue, so a late caller is woken at once.
    public func nextDeadline(after now: Moment) -> Moment? {
        guard case .running(let end) = timing, let countdown = segmentCountdown else { return nil }
        var next = countdown.deadline
        if let boundary = countdown.nextSecondBoundary(after: now) { next = min(next, boundary) }
        if nextCue < cues.count { next = min(next, moment(of: cues[nextCue].at, end: end)) }
        return next
    }

    /// Moves to where the clock says the run is at `now`: consumes every cue that fell due (giving
    /// those not stale) and moves to the current segment, skipping any that passed entirely.
    public mutating func advance(to now: Moment) -> Step {
        guard case .running(let end) = timing else { return Step() }
        var step = Step()
        while nextCue < cues.count {
            let due = moment(of: cues[nextCue].at, end: end)
            guard due <= now else { break }
            if now - due <= Self.cueGrace { step.cues.append(cues[nextCue]) }
            nextCue += 1
        }
        let elapsed = elapsed(at: now)
        if elapsed >= total {
            step.finishedAt = end
            segment = segmentEnds.count - 1
            return step
        }
        let current = segmentEnds.firstIndex { $0 > elapsed } ?? segmentEnds.count - 1
        if current != segment {
            segment = current
            step.segmentChanged = true
        }
        return step
    }

    /// Freezes the run at `now`.
    public mutating func pause(at now: Moment) {
        timing = .paused(remaining: remainingTotal(at: now))
    }

    /// Continues exactly where it was paused: what was left now ends `remaining` from `now`.
    public mutating func resume(at now: Moment) {
        guard case .paused(let remaining) = timing else { return }
        timing = .running(end: now + remaining)
    }

    /// Takes `timing` (its class's, see `ClassTimeline`) at `now`: the segment the clock now
    /// says; the cues from there on fall due at their new moments, those before it are dropped.
    /// The one move that may take `nextCue` back: a station following its class gives the
    /// class's calls, not its own.
    public mutating func follow(_ timing: Timing, at now: Moment) {
        self.timing = timing
        let elapsed = elapsed(at: now)
        nextCue = cues.firstIndex { $0.at > elapsed } ?? cues.count
        segment = segmentEnds.firstIndex { $0 > elapsed } ?? segmentEnds.count - 1
    }

    /// Ends the current segment now (skipping what is left of it and its cues) and moves to the
    /// next one. Does nothing for the last segment or while paused.
    public mutating func skipSegment(at now: Moment) {
        guard case .running(let end) = timing, segment + 1 < segmentEnds.count else { return }
        let left = moment(of: segmentEnds[segment], end: end) - now
        timing = .running(end: end - max(left, .zero))
        while nextCue < cues.count && cues[nextCue].at <= segmentEnds[segment] { nextCue += 1 }
        segment += 1
    }

    /// The moment an offset of active time falls on, for a run ending at `end`.
    private func moment(of offset: Duration, end: Moment) -> Moment { end - (total - offset) }
}
