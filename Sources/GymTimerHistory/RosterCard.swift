import GymTimerCore

/// One card of the gym's roster as the stations are told of it (the collector makes a
/// `FleetAthleteCard` of it): its athlete's short name and their best result per program and
/// division, over every card of theirs on every station.
public struct RosterCard: Hashable, Sendable {
    /// One program's best in one division.
    public typealias Best = ProgramBest

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
