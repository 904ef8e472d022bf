/// An athlete's best result per program and division, as the gym knows it (published for the
/// stations on the athlete's card, `FleetAthleteCard`): what a result at the wall must beat to
/// be a personal record (`Pr`). A division not said counts as Rx, as the history's records do.
public struct AthleteBests: Hashable, Sendable, Codable {
    /// One program's best in one division.
    public struct Entry: Hashable, Sendable, Codable {
        public var program: String
        public var division: Division
        public var score: ProgramScore

        public init(program: String, division: Division, score: ProgramScore) {
            self.program = program
            self.division = division
            self.score = score
        }
    }

    /// The most entries kept (the card's own limit): a new program beyond it drops the oldest.
    public static let maximumCount = 64

    /// In the order they became known, the oldest first.
    public private(set) var entries: [Entry]

    public init(_ entries: [Entry] = []) {
        self.entries = []
        for entry in entries { keep(entry) }
    }

    /// The best known of `program` in `division`, or nil.
    public func best(of program: String, in division: Division) -> ProgramScore? {
        entries.first { $0.program == program && $0.division == division }?.score
    }

    /// Takes in a result: whether it beat the best known of its program and division (a
    /// personal record; never without a best to beat), and keeps it as the best when it did or
    /// when none was known, so the next result is measured against it.
    public mutating func record(_ score: ProgramScore, of program: String, in division: Division) -> Bool {
        guard let held = best(of: program, in: division) else {
            keep(Entry(program: program, division: division, score: score))
            return false
        }
        guard score.beats(held) else { return false }
        keep(Entry(program: program, division: division, score: score))
        return true
    }

    /// `entry` in place of the one of its program and division, or after the others (the
    /// oldest dropped beyond `maximumCount`).
    private mutating func keep(_ entry: Entry) {
        if let index = entries.firstIndex(where: { $0.program == entry.program && $0.division == entry.division }) {
            entries[index] = entry
            return
        }
        entries.append(entry)
        if entries.count > Self.maximumCount { entries.removeFirst(entries.count - Self.maximumCount) }
    }

    /// A stored list (a journal) is taken as `init` would: one entry per program and division,
    /// at most `maximumCount`, whatever a hand edit left in it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode([Entry].self, forKey: .entries).suffix(Self.maximumCount))
    }
}
