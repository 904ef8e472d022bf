/// A class's instants, on the kiosk's timeline: when its work begins and when it was paused and
/// resumed. They are the truth every station of the class follows: a station that missed a pause
/// (offline, restarted) is moved to where they say its run is (`ProgramRun.follow`).
public struct ClassTimeline: Hashable, Sendable {
    /// One pause of the class: from `from` until `until` (nil: still paused).
    public struct Pause: Hashable, Sendable {
        public var from: Moment
        public var until: Moment?

        public init(from: Moment, until: Moment?) {
            self.from = from
            self.until = until
        }
    }

    /// The most pauses a class keeps (what a message from the network may carry).
    public static let maximumPauses = 100

    /// The instant the class's work begins (its lead-in, if any, ends then).
    public var workBegins: Moment
    /// In order; only the last may be open.
    public var pauses: [Pause]

    public init(workBegins: Moment, pauses: [Pause] = []) {
        self.workBegins = workBegins
        self.pauses = pauses
    }

    /// Why these instants cannot be a class's (nil when they can): pauses in order, none before
    /// the run's start (its lead-in before the work), none but the last open, at most `maximumPauses`.
    public func problem(leadIn: Duration) -> String? {
        guard pauses.count <= Self.maximumPauses else { return "more than \(Self.maximumPauses) pauses" }
        var earliest = workBegins - leadIn
        for (index, pause) in pauses.enumerated() {
            guard pause.from >= earliest else { return "pause \(index + 1) is before what it follows" }
            guard let until = pause.until else {
                return index == pauses.count - 1 ? nil : "pause \(index + 1) never ends but is not the last"
            }
            guard until >= pause.from else { return "pause \(index + 1) ends before it begins" }
            earliest = until
        }
        return nil
    }

    /// The timing of the class's run of `total` active time whose first `leadIn` is its lead-in:
    /// it began `leadIn` before the work, and every pause moved its end on by the pause's length.
    public func timing(total: Duration, leadIn: Duration) -> SegmentRun.Timing {
        let start = workBegins - leadIn
        var paused = Duration.zero
        for pause in pauses {
            guard let until = pause.until else {
                let ran = pause.from - start - paused
                return .paused(remaining: min(max(total - ran, .zero), total))
            }
            paused += until - pause.from
        }
        return .running(end: start + total + paused)
    }
}
