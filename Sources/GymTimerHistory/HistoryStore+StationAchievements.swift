import Foundation
import GRDB

extension HistoryStore {
    /// The achievements one fleet station earned by its own workouts in a collector's database,
    /// each dated by the workout that earned it. The file's `achievements` table is the whole
    /// gym's (a collector stores every station's records), so `stats --station` works them out
    /// from that station's rows instead of showing the gym's.
    static func achievements(_ db: Database, station: String) throws -> [UnlockedAchievement] {
        guard try hasStationColumn(db) else { return [] }
        let rows = try Row.fetchAll(
            db, sql: "SELECT completed_at, local_day FROM workouts WHERE \(validRow) AND station = ? ORDER BY completed_at, id",
            arguments: [station])
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
