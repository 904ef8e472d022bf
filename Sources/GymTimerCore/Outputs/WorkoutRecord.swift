/// One finished workout, as the history stores it.
public struct WorkoutRecord: Hashable, Sendable, Codable {
    /// What kind of workout it was.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable { case rest, interval, workout, program }

    public var kind: Kind
    /// Sets completed (rests finished in rest mode, sets in interval mode, exercises in a session).
    public var sets: Int
    /// From the first start to the end.
    public var duration: Duration
    /// Calorie estimate, when the mode has one.
    public var calories: Int
    /// Exercises completed (workout sessions only).
    public var exercises: [String]
    /// The preset name for workout sessions, the program's name for programs.
    public var preset: String?
    /// The score of a program (nil for the other kinds).
    public var score: ProgramScore?
    /// When it ended on the kiosk's monotonic timeline; the runtime stamps wall-clock time.
    public var endedAt: Moment
    /// Whose workout it was (the card of the athlete on the station when it was recorded,
    /// `Kiosk+Athlete`), or nil: a guest's.
    public var athlete: CardID?
    /// Rx or Scaled: the station's division when a program's result was recorded
    /// (`Kiosk+Division`); nil for the other kinds, and for records from before divisions.
    public var division: Division?

    public init(
        kind: Kind, sets: Int, duration: Duration, calories: Int = 0,
        exercises: [String] = [], preset: String? = nil, score: ProgramScore? = nil, endedAt: Moment,
        athlete: CardID? = nil, division: Division? = nil
    ) {
        self.athlete = athlete
        self.division = division
        self.kind = kind
        self.sets = sets
        self.duration = duration
        self.calories = calories
        self.exercises = exercises
        self.preset = preset
        self.score = score
        self.endedAt = endedAt
    }
}
