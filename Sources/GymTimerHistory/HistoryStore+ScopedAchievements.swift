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
        var unlocked: [UnlockedAchievement] = []
        var earned: Set<Achievement> = []
        var days: Set<LocalDay> = []
        var longest = 0
        for (index, row) in rows.enumerated() {
            guard let date = Date.fromDatabaseValue(row[0]), let text = String.fromDatabaseValue(row[1]),
                  let day = LocalDay(text) else { continue }
            // The longest streak changes only with a day not seen before.
            if days.insert(day).inserted { longest = DailyStreak(days: days, today: day).longest }
            for achievement in Achievement.earned(workouts: index + 1, longestStreak: longest)
            where earned.insert(achievement).inserted {
                unlocked.append(UnlockedAchievement(achievement, unlockedAt: date))
            }
        }
        return unlocked
    }
}
