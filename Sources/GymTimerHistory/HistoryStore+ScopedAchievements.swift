import Foundation
import GRDB

extension HistoryStore {
    /// The achievements one fleet station or one athlete earned by their own workouts, each
    /// dated by the workout that earned it, by the rules the whole file's are unlocked with as
    /// records arrive. The file's `achievements` table is the whole file's (a collector stores
    /// every station's records, every athlete's), so `stats --station` and `stats --athlete`
    /// work them out from their rows instead of showing the gym's.
    static func achievements(_ db: Database, scope: HistoryScope) throws -> [UnlockedAchievement] {
        let (filter, arguments) = try scope.condition(db)
        let rows = try Row.fetchAll(
            db, sql: "SELECT completed_at, local_day FROM workouts WHERE \(validRow)\(filter) ORDER BY completed_at, id",
            arguments: arguments)
        let dated = rows.compactMap { row -> (date: Date, day: LocalDay)? in
            guard let date = Date.fromDatabaseValue(row[0]), let text = String.fromDatabaseValue(row[1]), let day = LocalDay(text) else { return nil }
            return (date, day)
        }
        return StationStats.achievements(earnedBy: dated)
    }
}
