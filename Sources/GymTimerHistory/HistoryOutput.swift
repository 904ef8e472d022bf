import Foundation
import GymTimerCore

/// The history as text: a table and totals for the gym owner, CSV for a spreadsheet, JSON for
/// scripts. Kept here, not in the CLI, so the formats are tested.
public enum HistoryOutput {
    /// CSV (RFC 4180, `\n` line ends): a header, then one line per workout. `completed_at` is
    /// UTC ISO 8601; `duration_s` whole seconds; exercises joined by `; `; `score` a program's
    /// result, empty for the other kinds.
    /// A collector's workouts (any with a station) get a column `station`, athletes' workouts
    /// (any with a card) a column `athlete` (the card's UID, empty for a guest), program results
    /// with a division a column `division` (`rx`, `scaled`, empty when not said); when any date was
    /// taken on an unsynchronised clock, a last column `clock_synchronised` says which (`true`,
    /// `false`, empty when unknown). Text that a spreadsheet would take for a formula is
    /// written as text (`csvField`).
    public static func csv(_ workouts: [StoredWorkout]) -> String {
        let stations = workouts.contains { $0.station != nil }
        let athletes = workouts.contains { $0.athlete != nil }
        let divisions = workouts.contains { $0.division != nil }
        let marked = workouts.contains { $0.clockSynchronised == false }
        var lines = ["id,completed_at,local_day,kind,sets,duration_s,calories,preset,exercises,score"
            + (stations ? ",station" : "") + (athletes ? ",athlete" : "") + (divisions ? ",division" : "")
            + (marked ? ",clock_synchronised" : "")]
        for workout in workouts {
            var fields = [
                workout.id, iso8601(workout.completedAt), workout.localDay.description, workout.kind.rawValue,
                String(workout.sets), String(roundedSeconds(workout.durationMilliseconds)), String(workout.calories),
                workout.preset ?? "", workout.exercises.joined(separator: "; "), workout.score ?? "",
            ]
            if stations { fields.append(workout.station ?? "") }
            if athletes { fields.append(workout.athlete?.hex ?? "") }
            if divisions { fields.append(workout.division?.rawValue ?? "") }
            if marked { fields.append(workout.clockSynchronised.map(String.init) ?? "") }
            lines.append(fields.map(csvField).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// JSON: an array of workouts, keys as in the database, dates UTC ISO 8601;
    /// `clock_synchronised` when known (false: the date may be wrong); `athlete` (the card's
    /// UID) on an athlete's workout, none on a guest's; `division` (`rx`, `scaled`) on a
    /// program's result when it was said.
    public static func json(_ workouts: [StoredWorkout]) throws -> String {
        try encode(workouts)
    }

    /// JSON: the station's stats.
    public static func json(_ stats: StationStats) throws -> String {
        try encode(stats)
    }

    /// What `stats` prints: the JSON, or the table with local times in `timeZone`.
    public static func report(_ stats: StationStats, json: Bool, timeZone: TimeZone) throws -> String {
        json ? try Self.json(stats) : text(stats, timeZone: timeZone)
    }

    /// A table for the gym owner, local times in `timeZone`, then a line of totals; a
    /// collector's workouts (any with a station) get a `Station` column first, athletes'
    /// workouts (any with a card) an `Athlete` column next (the athlete's roster name from
    /// `names`, else the card's UID: a card the roster does not know; empty for a
    /// guest); program results with a division a `Division` column after the score (`Rx`,
    /// `Scaled`, empty when not said); a voided result's score reads `void (…)`. A date taken on
    /// an unsynchronised clock has its time marked `?`, explained under the totals.
    public static func table(_ workouts: [StoredWorkout], timeZone: TimeZone, names: [CardID: String] = [:]) -> String {
        guard !workouts.isEmpty else { return "No workouts recorded.\n" }
        let stations = workouts.contains { $0.station != nil }
        let athletes = workouts.contains { $0.athlete != nil }
        let divisions = workouts.contains { $0.division != nil }
        let header = ["Date", "Time", "Type", "Duration", "Sets", "Calories", "Preset", "Score"] + (divisions ? ["Division"] : [])
        var rows = [header]
        for workout in workouts {
            // Its own statement: in the row's literal, Swift 6.2 could not type-check it in time.
            var score = workout.score ?? ""
            if workout.score == nil, let voided = workout.voidedScore { score = "void (\(voided))" }
            let time = localTime(workout.completedAt, timeZone) + (workout.clockSynchronised == false ? "?" : "")
            let calories = workout.calories > 0 ? String(workout.calories) : "-"
            var row: [String] = [
                workout.localDay.description, time, workout.kind.rawValue, clock(workout.durationMilliseconds),
                String(workout.sets), calories, workout.preset ?? "", score,
            ]
            if divisions { row.append(workout.division?.title ?? "") }
            rows.append(row)
        }
        if athletes {
            rows[0].insert("Athlete", at: 0)
            for index in workouts.indices {
                let card = workouts[index].athlete
                rows[index + 1].insert(card.map { names[$0] ?? $0.hex } ?? "", at: 0)
            }
        }
        if stations {
            rows[0].insert("Station", at: 0)
            for index in workouts.indices { rows[index + 1].insert(workouts[index].station ?? "", at: 0) }
        }
        // Duration, Sets and Calories are right-aligned, a column further for each column before Date.
        let leading = (stations ? 1 : 0) + (athletes ? 1 : 0)
        let rightAligned: Set<Int> = [3 + leading, 4 + leading, 5 + leading]
        let columns = rows[0].indices
        let widths = columns.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = ""
        for row in rows {
            let cells = row.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - row[column].count)
                return rightAligned.contains(column) ? padding + row[column] : row[column] + padding
            }
            text += cells.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }
        let total = workouts.reduce(Int64(0)) { $0 + $1.durationMilliseconds }
        let calories = workouts.reduce(0) { $0 + $1.calories }
        let noun = workouts.count == 1 ? "workout" : "workouts"
        text += "\n\(workouts.count) \(noun), \(clock(total)) in all, \(calories) kcal\n"
        if workouts.contains(where: { $0.clockSynchronised == false }) {
            text += "? recorded before the kiosk's clock was synchronised (after a power cut): the date may be wrong\n"
        }
        return text
    }

    /// The stats as labelled lines for the gym owner; dates of achievements in `timeZone`.
    public static func text(_ stats: StationStats, timeZone: TimeZone) -> String {
        func days(_ count: Int) -> String { count == 1 ? "1 day" : "\(count) days" }
        let achievements = stats.achievements.isEmpty
            ? "none yet"
            : stats.achievements.map { "\($0.achievement.title) (\(LocalDay($0.unlockedAt, in: timeZone)))" }
                .joined(separator: ", ")
        return """
            Workouts:        \(stats.workouts)
            Total time:      \(clock(stats.totalDurationMilliseconds))
            Calories:        \(stats.calories) kcal
            Points:          \(stats.points)
            Current streak:  \(days(stats.currentStreak))
            Longest streak:  \(days(stats.longestStreak))
            Achievements:    \(achievements)

            """ + records(stats.records, timeZone: timeZone)
    }

    /// `Records:` and a line per program's best in each division (its day and station), when
    /// there is any: an Rx best as the program's name, a Scaled one marked `(Scaled)`.
    static func records(_ records: [PersonalRecord], timeZone: TimeZone) -> String {
        guard !records.isEmpty else { return "" }
        return "Records:\n" + records.map { record in
            "  \(record.program)\(record.division == .rx ? "" : " (\(record.division.title))"): \(record.score) (\(LocalDay(record.completedAt, in: timeZone))\(record.station.map { ", " + $0 } ?? ""))\n"
        }.joined()
    }

    /// `m:ss`, or `h:mm:ss` from an hour on, rounded to the second.
    static func clock(_ milliseconds: Int64) -> String {
        let total = roundedSeconds(milliseconds)
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds))" : "\(minutes):\(two(seconds))"
    }

    private static func roundedSeconds(_ milliseconds: Int64) -> Int64 { (milliseconds + 500) / 1000 }

    /// One CSV field, quoted where RFC 4180 needs it. A field a spreadsheet would read as a
    /// formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return: a preset or an
    /// exercise named so on any station of the gym) gets a leading `'`, so it shows as text and
    /// never runs (OWASP's advice for CSV injection). Every number written here is whole and not
    /// negative, so none is touched.
    static func csvField(_ field: String) -> String {
        let field = field.first.map { "=+-@\t\r".contains($0) } == true ? "'" + field : field
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func iso8601(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .gmt))
    }

    private static func localTime(_ date: Date, _ timeZone: TimeZone) -> String {
        let parts = LocalDay.calendar(timeZone).dateComponents([.hour, .minute], from: date)
        let (hour, minute) = (parts.hour ?? 0, parts.minute ?? 0)
        return (hour < 10 ? "0\(hour)" : "\(hour)") + ":" + (minute < 10 ? "0\(minute)" : "\(minute)")
    }

    /// `value` as the JSON `--json` prints (pretty, sorted keys, ISO 8601 dates): also the
    /// chain's records with their gym (gymtimer-central).
    public static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
