import GymTimerCore

/// One card of the gym's roster as the stations are told of it (the collector makes a
/// `FleetAthleteCard` of it): its athlete's short name and their best result per program and
/// division, over every card of theirs on every station.
public struct RosterCard: Hashable, Sendable {
    /// One program's best in one division, its score as the history writes it.
    public struct Best: Hashable, Sendable {
        public var program: String
        public var division: Division
        public var score: String

        public init(program: String, division: Division, score: String) {
            self.program = program
            self.division = division
            self.score = score
        }
    }

    public var card: CardID
    public var shortName: String
    /// By program, then division.
    public var bests: [Best]

    public init(card: CardID, shortName: String, bests: [Best]) {
        self.card = card
        self.shortName = shortName
        self.bests = bests
    }
}
