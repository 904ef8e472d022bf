import Foundation

/// Everything the gym keeps of one athlete (an export for them, e.g. a data-access request):
/// their roster entry, cards and workouts, as JSON or CSV.
public struct AthleteExport: Hashable, Sendable, Codable {
    public var athlete: RosterAthlete
    /// Their workouts on every station, oldest first.
    public var workouts: [StoredWorkout]

    public init(athlete: RosterAthlete, workouts: [StoredWorkout]) {
        self.athlete = athlete
        self.workouts = workouts
    }

    /// `{"athlete": {id, name, short_name, created_at, cards}, "workouts": [...]}`, the
    /// workouts as `gymtimer history --json` writes them.
    public func json() throws -> String {
        try HistoryOutput.encode(self)
    }

    /// Two CSV tables separated by an empty line: the roster entry (`name,short_name,
    /// created_at,cards`, the cards joined by `; `), then the workouts as `gymtimer history
    /// --csv` writes them (a header alone when there are none).
    public func csv() -> String {
        let entry = [
            athlete.name, athlete.shortName, HistoryOutput.iso8601(athlete.createdAt),
            athlete.cards.map(\.hex).joined(separator: "; "),
        ]
        return "name,short_name,created_at,cards\n" + entry.map(HistoryOutput.csvField).joined(separator: ",") + "\n\n"
            + HistoryOutput.csv(workouts)
    }
}
