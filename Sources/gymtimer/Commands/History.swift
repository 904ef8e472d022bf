import ArgumentParser
import Foundation
import GymTimerCore
import GymTimerHistory

/// `gymtimer history`: the recorded workouts, as a table for the gym owner or CSV / JSON.
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the recorded workouts: a table, or --csv / --json for other tools.")

    /// How to print the workouts.
    enum Format: String, EnumerableFlag {
        case table, csv, json

        static func help(for value: Format) -> ArgumentHelp? {
            switch value {
            case .table: "A readable table with totals."
            case .csv: "CSV with a header line, for a spreadsheet."
            case .json: "A JSON array."
            }
        }
    }

    @Flag(exclusivity: .exclusive)
    var format: Format = .table

    @Option(name: .long, help: "Only workouts from this local day on (YYYY-MM-DD).")
    var since: String?

    @OptionGroup var database: HistoryDatabaseOptions

    func run() throws {
        var start: Date?
        if let since {
            guard let day = LocalDay(since) else {
                throw CLIError.usage("bad date for --since: \(since) (expected YYYY-MM-DD)")
            }
            start = day.start(in: .current)
        }
        let workouts: [StoredWorkout]
        var names: [CardID: String] = [:]
        // Outside the `do`: a bad --config has already printed its problems and exits 2 as is.
        let path = try database.path()
        let scope = try database.scope(path: path)
        do {
            let store = try HistoryStore.reading(path: path)
            workouts = try store.workouts(since: start, scope: scope)
            // The table names athletes as the roster does (a station's own history has no roster).
            if format == .table, let roster = try? AthleteRoster.reading(path: path) { names = roster.namesByCard() }
            if store.skippedRows > 0 {
                StandardError.writeLine("\(path): \(store.skippedRows) malformed row(s) left out (edited or damaged)")
            }
        } catch {
            throw CLIError.usage("\(error)")
        }
        try StandardOutput.report {
            switch format {
            case .table: HistoryOutput.table(workouts, timeZone: .current, names: names)
            case .csv: HistoryOutput.csv(workouts)
            case .json: try HistoryOutput.json(workouts)
            }
        }
    }
}
