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
    /// The records of one athlete; a guest's (no card) are in no athlete's.
    case athlete(CardID)

    /// The column and value a scoped query matches, nil for `.all`.
    private var match: (column: String, value: String)? {
        switch self {
        case .all: nil
        case .station(let name): ("station", name)
        case .athlete(let card): ("athlete", card.hex)
        }
    }

    /// The SQL condition (` AND column = ?`, to follow a `WHERE`) and its argument; ` AND 0`
    /// when the file predates the column (read before its kiosk migrated it), as it has no
    /// such records.
    func condition(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        guard let match else { return ("", []) }
        guard try db.columns(in: "workouts").contains(where: { $0.name == match.column }) else { return (" AND 0", []) }
        return (" AND \(match.column) = ?", [match.value])
    }
}
