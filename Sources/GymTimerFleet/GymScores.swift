import GymTimerCore

/// Today's scores and the week's workouts: what the coach's page's leaderboard and chart show.
/// The collector publishes them, retained, on `FleetTopics.gymScores` after each stored batch
/// (and when the roster or the day changes); the console checks them (`isWellFormed`), draws
/// the chart and passes them to the pages. Data only: the collector makes them from its
/// database (`GymScores.make`, GymTimerFleetLink).
public struct GymScores: Hashable, Sendable, Codable {
    /// What the leaderboard says for a record without a card.
    public static let guest = "guest"

    /// One program's results today, best first.
    public struct Board: Hashable, Sendable, Codable {
        public var program: String
        /// `For Time` when any result is timed or capped, else `AMRAP` (rounds, most first).
        public var kind: String
        public var entries: [Entry]

        public init(program: String, kind: String, entries: [Entry]) {
            self.program = program
            self.kind = kind
            self.entries = entries
        }
    }

    /// One athlete's finished program, on one station.
    public struct Entry: Hashable, Sendable, Codable {
        /// The record's id in the gym (`station/…`): what the coach's Rx/Scaled switch names.
        public var id: String = ""
        /// Who: a roster name, `new card 1A2B`, or `guest`.
        public var athlete: String = GymScores.guest
        /// Their roster id (their page, `/athlete/{id}`); nil for a new card or a guest.
        public var athleteID: Int64? = nil
        public var station: String
        public var score: String
        /// Rx or Scaled: every Rx result ranks above every Scaled one.
        public var division: Division = .rx
        /// When it was finished (Unix seconds).
        public var at: Double
        /// Its place on the board: equal scores in one division share one (1, 2, 2, 4),
        /// whoever finished first.
        public var rank: Int = 0
        /// The gym it was done at, on the chain's leaderboard (`C/all/gym/scores`); nil on one gym's.
        public var gym: String? = nil
        /// A roster athlete's name for the signed-out world, as the owner chose it for them
        /// (`PublicName`: `Anna B.`, their short name, or `guest`); nil for a new card, a guest,
        /// or a collector that does not say (the initial is made from `athlete` then).
        public var shown: String? = nil

        public init(
            id: String = "", athlete: String = GymScores.guest, athleteID: Int64? = nil, station: String, score: String,
            division: Division = .rx, at: Double, rank: Int = 0, gym: String? = nil, shown: String? = nil
        ) {
            self.shown = shown
            self.id = id
            self.athlete = athlete
            self.athleteID = athleteID
            self.station = station
            self.score = score
            self.division = division
            self.at = at
            self.rank = rank
            self.gym = gym
        }
    }

    /// Workouts per station on each of the last 7 days (oldest first).
    public struct Week: Hashable, Sendable, Codable {
        public var days: [String]
        public var stations: [String]
        /// `counts[station][day]`.
        public var counts: [[Int]]

        public init(days: [String], stations: [String], counts: [[Int]]) {
            self.days = days
            self.stations = stations
            self.counts = counts
        }
    }

    /// The day they are of (`2026-11-24`, the collector's local day): a page after midnight
    /// does not show yesterday's as today's.
    public var day: String
    public var boards: [Board]
    public var week: Week
    /// The week as an SVG chart: drawn by the console from `week` (never taken from the wire).
    public var chart: String?

    public init(day: String, boards: [Board], week: Week, chart: String? = nil) {
        self.day = day
        self.boards = boards
        self.week = week
        self.chart = chart
    }

    /// Whether the week's table is as wide and tall as its days and stations (a chart can be
    /// drawn from it without reading past an end).
    public var isWellFormed: Bool {
        week.counts.count == week.stations.count && week.counts.allSatisfy { $0.count == week.days.count }
    }
}
