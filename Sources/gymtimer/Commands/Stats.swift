import ArgumentParser
import Foundation
import GymTimerHistory

/// `gymtimer stats`: the station's totals, points, streaks and achievements.
struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the station's totals, points, daily streaks and achievements.")

    @Flag(name: .long, help: "Print JSON instead of labelled lines.")
    var json = false

    @Option(name: .long, help: "The history database (default: the config's [history] path, else \(HistoryStore.defaultPath)).")
    var db: String?

    @Option(name: .long, help: "Config file whose [history] path to read.")
    var config: String?

    /// The database to read: --db, else the config's, else the kiosk's default.
    private func databasePath() throws -> String {
        if let db { return db }
        if let config { return try loadConfiguration(config).history.path }
        return HistoryStore.defaultPath
    }

    func run() throws {
        let stats: StationStats
        do {
            stats = try HistoryStore.reading(path: databasePath()).stats()
        } catch {
            throw CLIError.usage("\(error)")
        }
        let output = StandardOutput()
        if json {
            do {
                output.write(try HistoryOutput.json(stats))
            } catch {
                throw CLIError.failed("cannot write JSON: \(error)")
            }
        } else {
            output.write(HistoryOutput.text(stats, timeZone: .current))
        }
        output.flush()
    }
}
