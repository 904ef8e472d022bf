import GRDB
import GymTimerCore

/// Which records a history query covers: the whole file, one fleet station's (a collector's
/// database) or one athlete's (their card's, on every station). `HistoryStore.workouts` and
/// `HistoryStore.stats` take one, so an athlete's history, points, streak and achievements
/// follow exactly the rules a station's do (fleet.md, "Athletes").
public enum HistoryScope: Hashable, Sendable {
    /// Every record, a guest's included.
    case all
    /// The records of one fleet station.
    case station(String)
    /// The records of one athlete: those of every card of theirs (the roster's, `AthleteRoster`;
    /// one card for a card no roster names). A guest's (no card) are in no athlete's, and an
    /// empty list matches nothing.
    case athlete([CardID])

    /// The column and values a scoped query matches, nil for `.all`.
    private var match: (column: String, values: [String])? {
        switch self {
        case .all: nil
        case .station(let name): ("station", [name])
        case .athlete(let cards): ("athlete", cards.map(\.hex))
        }
    }

    /// The SQL condition (` AND column IN (?, ...)`, to follow a `WHERE`) and its arguments;
    /// ` AND 0` when the file predates the column (read before its kiosk migrated it), as it
    /// has no such records, or when there is no value to match.
    func condition(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        guard let match else { return ("", []) }
        guard !match.values.isEmpty,
              try db.columns(in: "workouts").contains(where: { $0.name == match.column }) else { return (" AND 0", []) }
        let marks = Array(repeating: "?", count: match.values.count).joined(separator: ", ")
        return (" AND \(match.column) IN (\(marks))", StatementArguments(match.values))
    }
}
