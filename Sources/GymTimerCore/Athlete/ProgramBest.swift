/// An athlete's best result of one program in one division, its score as the history writes it
/// (`ProgramScore(text:)` reads it back): what the gym's roster works out (`RosterCard`) and
/// tells its stations (`FleetAthleteCard`), one shape for both.
public struct ProgramBest: Hashable, Sendable, Codable {
    public var program: String
    public var division: Division
    public var score: String

    public init(program: String, division: Division, score: String) {
        self.program = program
        self.division = division
        self.score = score
    }
}
