import GymTimerCore

/// A station's retained `state` (fleet.md) as it travels: its fields in the order declared
/// here (a nil one written `null`, except `result`, `starts_at` and `sleep`/`asleep`, which are
/// left out while there is none); instants and durations as `WireSeconds`. It names no athlete:
/// everyone who reads states (Home Assistant's account too) would read who trains where; the
/// card on the station is on its own `athlete` topic (`FleetTopics.athlete`), which only the
/// coach's account reads.
/// `FleetStateReport` (FleetLink) makes one of the kiosk's state.
public struct FleetStateMessage: Hashable, Sendable, Encodable {
    public var mode: String
    public var phase: String
    public var program: String?
    /// What the display shows.
    public var display: String
    /// When the current countdown ends (Unix time); nil when none runs.
    public var deadline: WireSeconds?
    /// What is left of the current countdown while it is paused.
    public var remaining: WireSeconds?
    public var round: Int?
    /// A finished program's score, while its result shows.
    public var result: String?
    public var sets: Int
    public var restSeconds: Int?
    /// The Unix instant of a class start the station has scheduled.
    public var startsAt: WireSeconds?
    public var programs: [String]
    public var locked: Bool
    public var brightness: Int?
    /// The sleep window a coach set (with `asleep`), in the JSON only once one was set.
    public var sleep: SleepWindow?
    public var asleep: Bool
    public var division: String
    /// When the state changed (Unix time).
    public var t: WireSeconds

    public init(
        mode: String, phase: String, program: String?, display: String, deadline: WireSeconds?, remaining: WireSeconds?,
        round: Int?, result: String?, sets: Int, restSeconds: Int?, startsAt: WireSeconds?, programs: [String], locked: Bool,
        brightness: Int?, sleep: SleepWindow?, asleep: Bool, division: String, t: WireSeconds
    ) {
        (self.mode, self.phase, self.program, self.display) = (mode, phase, program, display)
        (self.deadline, self.remaining, self.round, self.result) = (deadline, remaining, round, result)
        (self.sets, self.restSeconds, self.startsAt, self.programs) = (sets, restSeconds, startsAt, programs)
        (self.locked, self.brightness, self.sleep, self.asleep) = (locked, brightness, sleep, asleep)
        (self.division, self.t) = (division, t)
    }

    private enum CodingKeys: String, CodingKey {
        case mode, phase, program, display, deadline, remaining, round, result, sets
        case restSeconds = "rest_seconds"
        case startsAt = "starts_at"
        case programs, locked, brightness, sleep, asleep, division, t
    }

    private enum SleepKeys: String, CodingKey {
        case from, until
    }

    /// The payload as JSON text.
    public var json: String { FleetJSONEncoder().text(self) }

    public func encode(to encoder: Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(mode, forKey: .mode)
        try fields.encode(phase, forKey: .phase)
        try fields.encode(program, forKey: .program)
        try fields.encode(display, forKey: .display)
        try fields.encode(deadline, forKey: .deadline)
        try fields.encode(remaining, forKey: .remaining)
        try fields.encode(round, forKey: .round)
        try fields.encodeIfPresent(result, forKey: .result)
        try fields.encode(sets, forKey: .sets)
        try fields.encode(restSeconds, forKey: .restSeconds)
        try fields.encodeIfPresent(startsAt, forKey: .startsAt)
        try fields.encode(programs, forKey: .programs)
        try fields.encode(locked, forKey: .locked)
        try fields.encode(brightness, forKey: .brightness)
        if let sleep {
            var window = fields.nestedContainer(keyedBy: SleepKeys.self, forKey: .sleep)
            try window.encode(sleep.fromText, forKey: .from)
            try window.encode(sleep.untilText, forKey: .until)
            try fields.encode(asleep, forKey: .asleep)
        }
        try fields.encode(division, forKey: .division)
        try fields.encode(t, forKey: .t)
    }
}
