import GymTimerCore
import GymTimerHistory

extension PostgresRecordStore {
    /// The card columns of the central database and whether each is a key.
    private static let cardColumns: [(table: String, column: String, unique: Bool)] = [
        ("workouts", "athlete", false), ("athlete_cards", "card", true),
    ]

    /// How many cards the chain's database still stores as UIDs from before pseudonyms.
    public func storedUIDCount() throws(CentralStoreError) -> Int {
        var count = 0
        for (table, column, _) in Self.cardColumns {
            let result = try link.run(
                PostgresQuery(unsafeSQL: "SELECT count(DISTINCT \(column)) FROM \(table) WHERE length(\(column)) <> 24", binds: PostgresBindings()),
                "count the card UIDs stored before pseudonyms")
            count += (try? result.rows.first?.decode(Int.self)) ?? 0
        }
        return count
    }

    /// Every card the chain's database stores as a UID from before pseudonyms (its workouts' and
    /// its roster's) turned into the card's pseudonym under the chain's `key`, in one
    /// transaction; a card stored both ways keeps its pseudonym's roster row. Returns how many;
    /// run again, none (`gymtimer-central collect --card-key`, `CardPseudonymMigration` for a
    /// gym's SQLite).
    @discardableResult
    public func carryCards(with key: CardKey) throws(CentralStoreError) -> Int {
        do throws(CentralStoreError) {
            try link.run("BEGIN", "begin carrying card UIDs to pseudonyms")
            var carried = 0
            for (table, column, unique) in Self.cardColumns {
                let found = try link.run(
                    PostgresQuery(unsafeSQL: "SELECT DISTINCT \(column) FROM \(table) WHERE length(\(column)) <> 24", binds: PostgresBindings()),
                    "read the card UIDs stored before pseudonyms")
                for row in found.rows {
                    guard let text = try? row.decode(String.self), let card = CardID(hex: text), !card.isPseudonym else { continue }
                    let pseudonym = key.carried(card).hex
                    func query(_ sql: String, _ values: String...) -> PostgresQuery {
                        var binds = PostgresBindings()
                        for value in values { binds.append(value) }
                        return PostgresQuery(unsafeSQL: sql, binds: binds)
                    }
                    var exists = false
                    if unique {
                        exists = !(try link.run(query("SELECT 1 FROM \(table) WHERE \(column) = $1", pseudonym), "look for a card's pseudonym").rows.isEmpty)
                    }
                    if exists {
                        try link.run(query("DELETE FROM \(table) WHERE \(column) = $1", text), "drop a card stored both ways")
                    } else {
                        try link.run(query("UPDATE \(table) SET \(column) = $1 WHERE \(column) = $2", pseudonym, text), "carry a card UID to its pseudonym")
                    }
                    carried += 1
                }
            }
            try link.run("COMMIT", "commit the cards' pseudonyms")
            return carried
        } catch {
            link.disconnect()
            throw error
        }
    }
}
