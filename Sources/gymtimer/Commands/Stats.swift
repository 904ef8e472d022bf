import ArgumentParser
import Foundation
import GymTimerHistory

/// `gymtimer stats`: the station's totals, points, streaks and achievements (or one fleet
/// station's, or one athlete's).
struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the station's totals, points, daily streaks and achievements.")

    @Flag(name: .long, help: "Print JSON instead of labelled lines.")
    var json = false

    @OptionGroup var database: HistoryDatabaseOptions

    func run() throws {
        let stats: StationStats
        // Outside the `do`: a bad --config has already printed its problems and exits 2 as is.
        let path = try database.path()
        let scope = try database.scope(path: path)
        do {
            stats = try HistoryStore.reading(path: path).stats(scope)
        } catch {
            throw CLIError.usage("\(error)")
        }
        try StandardOutput.report { try HistoryOutput.report(stats, json: json, timeZone: .current) }
    }
}
