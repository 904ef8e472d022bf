/// Who trains at the station now: the athlete whose card was tapped last (or whom the coach's
/// class list put here). Their workouts are recorded as theirs until they tap out, another card
/// is tapped, or the station has been idle and untouched for `AthleteSettings.idleTimeout`.
public struct StationAthlete: Hashable, Sendable, Codable {
    public var tap: CardTap
    /// When they arrived (tapped in).
    public var since: Moment
    /// The latest use of the station while they were on it: a hand, a command, a run under way.
    public var usedAt: Moment

    public init(tap: CardTap, since: Moment) {
        self.tap = tap
        self.since = since
        usedAt = since
    }

    public var card: CardID { tap.card }
}
