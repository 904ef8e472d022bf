import GRDB
import GymTimerCore

/// Turns the card UIDs a database stored before pseudonyms into the cards' pseudonyms, in
/// place: `workouts.athlete`, the roster's `cards` and a forget's `forget_requests`, one
/// transaction, nothing else touched (issue 48). Run again, it finds nothing: a pseudonym is
/// never a UID's length. A card stored both ways (re-added after the change) keeps its
/// pseudonym's row, the UID's dropped.
public enum CardPseudonymMigration {
    /// The columns that hold a card, and whether each is unique.
    static let columns: [(table: String, column: String, unique: Bool)] = [
        ("workouts", "athlete", false), ("cards", "card", true), ("forget_requests", "card", true),
    ]

    /// How many stored cards in `db` are UIDs from before pseudonyms.
    public static func uidCount(_ db: Database) throws -> Int {
        var count = 0
        for (table, column, _) in try present(db) {
            count += try Int.fetchOne(
                db, sql: "SELECT COUNT(DISTINCT \(column)) FROM \(table) WHERE \(column) IS NOT NULL AND length(\(column)) != ?",
                arguments: [2 * CardID.pseudonymByteCount]) ?? 0
        }
        return count
    }

    /// Carries every stored UID in `db` to its pseudonym under `key`; returns how many.
    @discardableResult
    public static func carry(_ db: Database, key: CardKey) throws -> Int {
        var carried = 0
        for (table, column, unique) in try present(db) {
            let uids = try String.fetchAll(
                db, sql: "SELECT DISTINCT \(column) FROM \(table) WHERE \(column) IS NOT NULL AND length(\(column)) != ?",
                arguments: [2 * CardID.pseudonymByteCount])
            for text in uids {
                guard let card = CardID(hex: text) else { continue }
                let pseudonym = key.carried(card).hex
                guard pseudonym != text else { continue }
                if unique, try Bool.fetchOne(db, sql: "SELECT 1 FROM \(table) WHERE \(column) = ?", arguments: [pseudonym]) == true {
                    try db.execute(sql: "DELETE FROM \(table) WHERE \(column) = ?", arguments: [text])
                } else {
                    try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE \(column) = ?", arguments: [pseudonym, text])
                }
                carried += 1
            }
        }
        return carried
    }

    /// The card columns whose table this database has (a station's has no roster).
    private static func present(_ db: Database) throws -> [(table: String, column: String, unique: Bool)] {
        try columns.filter { try db.tableExists($0.table) }
    }
}
