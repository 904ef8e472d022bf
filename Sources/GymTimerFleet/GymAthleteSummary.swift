import GymTimerCore

/// What an athlete's page shows (the collector's answer to a `summary` ask, `GymDeskAsk`):
/// their week (each of the last 7 days' workouts, on every station), their best per program
/// and division, their streak and points, by the same rules as a station's. Data only: the
/// collector makes it from its database (`GymAthleteSummary.make`, GymTimerFleetLink).
public struct GymAthleteSummary: Hashable, Sendable, Codable {
    /// One workout of theirs.
    public struct Workout: Hashable, Sendable, Codable {
        /// The program's name, else the kind (`rest`, `intervals`…).
        public var what: String
        public var score: String?
        public var station: String?

        public init(what: String, score: String?, station: String?) {
            self.what = what
            self.score = score
            self.station = station
        }
    }

    /// One day of their week.
    public struct Day: Hashable, Sendable, Codable {
        public var day: String
        public var workouts: [Workout]

        public init(day: String, workouts: [Workout]) {
            self.day = day
            self.workouts = workouts
        }
    }

    /// A best of one program in one division (a Scaled best never hides an Rx one).
    public struct Record: Hashable, Sendable, Codable {
        public var program: String
        public var division: Division
        public var score: String
        /// The station it was set on.
        public var station: String?

        public init(program: String, division: Division, score: String, station: String?) {
            self.program = program
            self.division = division
            self.score = score
            self.station = station
        }
    }

    public var id: Int64
    public var name: String
    public var shortName: String
    /// The last 7 days, oldest first.
    public var week: [Day]
    public var records: [Record]
    public var currentStreak: Int
    public var longestStreak: Int
    public var points: Int
    public var workouts: Int

    public init(
        id: Int64, name: String, shortName: String, week: [Day], records: [Record], currentStreak: Int, longestStreak: Int,
        points: Int, workouts: Int
    ) {
        self.id = id
        self.name = name
        self.shortName = shortName
        self.week = week
        self.records = records
        self.currentStreak = currentStreak
        self.longestStreak = longestStreak
        self.points = points
        self.workouts = workouts
    }
}
