import ArgumentParser
import Foundation
import GymTimerCore
import GymTimerHistory
import GymTimerSystem

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

    @Option(name: .customLong("void"), help: ArgumentHelp(
        "Void the program result with this id (its \"id\" in --json, e.g. rack-2/program@5): no best, leaderboard or athlete's page counts it any more; the workout stays listed, its score shown as void.",
        valueName: "id"))
    var voidRecord: String?

    func run() throws {
        if let voidRecord { return try void(voidRecord) }
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

    /// `--void ID`: the result voided in the file (never a new one), said in one line.
    private func void(_ record: String) throws {
        guard !record.isEmpty, record.utf8.count <= 256, NameText.problem(record) == nil else {
            throw CLIError.usage("--void \(record.prefix(40).debugDescription): not a result's id (as --json shows it, e.g. rack-2/program@5)")
        }
        let path = try database.path()
        guard FileManager.default.fileExists(atPath: path) else { throw CLIError.failed("\(path): no history database there") }
        let voided: Bool
        do {
            voided = try HistoryStore(path: path, faults: FaultLog(sink: { StandardError.writeLine($0) }), busyTimeout: .seconds(5)).void(recordID: record)
        } catch {
            throw CLIError.failed("\(error)")
        }
        guard voided else {
            throw CLIError.failed("\(path): no program result \(record.debugDescription) that counts (see its id with --json; one voided already stays void)")
        }
        print("\(record): void; no best or leaderboard counts it")
    }
}
