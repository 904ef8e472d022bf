import Foundation
import GymTimerCore

/// A workout as the history keeps it: the core's record plus the wall-clock time it arrived.
public struct StoredWorkout: Hashable, Sendable, Codable {
    /// `WorkoutRecord.id`: kind and start moment, so a replayed record is stored once.
    public var id: String
    public var kind: WorkoutRecord.Kind
    public var sets: Int
    public var durationMilliseconds: Int64
    public var calories: Int
    public var exercises: [String]
    public var preset: String?
    /// A program's score as text (`ProgramScore.description`); nil for the other kinds.
    public var score: String?
    /// Wall-clock time when the store received the record (the core only knows monotonic time).
    public var completedAt: Date
    /// The kiosk's local day at `completedAt`.
    public var localDay: LocalDay
    /// The fleet station it came from (a collector's database); nil on a kiosk's own history.
    public var station: String?
    /// Whether `completedAt` came from a synchronised wall clock: false marks a date that may
    /// be wrong (taken before NTP synchronised a Pi without a clock battery); nil when unknown
    /// (records of earlier releases, a store with no clock to ask).
    public var clockSynchronised: Bool?
    /// The athlete's card the workout belongs to (`WorkoutRecord.athlete`); nil: a guest's.
    public var athlete: CardID?
    /// Rx or Scaled, for a program's result (`WorkoutRecord.division`); nil: not said (the
    /// other kinds, records from before divisions), which counts as Rx for records.
    public var division: Division?
    /// The score of a program result the coach voided (`HistoryStore.void`), which no best or
    /// leaderboard counts (`score` is nil then); nil for every result that counts.
    public var voidedScore: String?

    public init(
        id: String, kind: WorkoutRecord.Kind, sets: Int, durationMilliseconds: Int64, calories: Int,
        exercises: [String], preset: String?, completedAt: Date, localDay: LocalDay, score: String? = nil,
        station: String? = nil, clockSynchronised: Bool? = nil, athlete: CardID? = nil, division: Division? = nil,
        voidedScore: String? = nil
    ) {
        self.voidedScore = voidedScore
        self.athlete = athlete
        self.division = division
        self.clockSynchronised = clockSynchronised
        self.score = score
        self.station = station
        self.id = id
        self.kind = kind
        self.sets = sets
        self.durationMilliseconds = durationMilliseconds
        self.calories = calories
        self.exercises = exercises
        self.preset = preset
        self.completedAt = completedAt
        self.localDay = localDay
    }

    /// Stamps `record` with the wall-clock time it arrived, that time's day in `timeZone`, and
    /// whether the clock was synchronised then; its athlete and division go with it.
    public init(_ record: WorkoutRecord, completedAt: Date, timeZone: TimeZone, clockSynchronised: Bool? = nil) {
        self.init(
            id: record.id, kind: record.kind, sets: record.sets,
            durationMilliseconds: record.duration.nanoseconds / 1_000_000, calories: record.calories,
            exercises: record.exercises, preset: record.preset,
            completedAt: completedAt, localDay: LocalDay(completedAt, in: timeZone), score: record.score?.description,
            clockSynchronised: clockSynchronised, athlete: record.athlete, division: record.division)
    }

    /// The duration as a Swift `Duration`.
    public var duration: Duration { .milliseconds(durationMilliseconds) }

    enum CodingKeys: String, CodingKey {
        case id, kind, sets, calories, exercises, preset, score, station, athlete, division
        case voidedScore = "voided_score"
        case durationMilliseconds = "duration_ms"
        case completedAt = "completed_at"
        case localDay = "local_day"
        case clockSynchronised = "clock_synchronised"
    }
}

extension StoredWorkout {
    /// The workout with its athlete's card as `key` carries it: a UID from before pseudonyms
    /// becomes the card's pseudonym (`CardKey.carried`).
    public func carryingCard(with key: CardKey) -> StoredWorkout {
        var workout = self
        workout.athlete = athlete.map(key.carried)
        return workout
    }
}
