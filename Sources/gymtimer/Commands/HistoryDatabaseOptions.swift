import ArgumentParser
import GymTimerHistory

/// Which history database `history` and `stats` read: `--db`, else the `[history] path` of
/// `--config`, else the kiosk's default.
struct HistoryDatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "The history database (default: the config's [history] path, else \(HistoryStore.defaultPath)).")
    var db: String?

    @Option(name: .long, help: "Config file whose [history] path to read.")
    var config: String?

    @Option(name: .long, help: "Only this fleet station's workouts (a database `gymtimer collect` fills).")
    var station: String?

    func path() throws -> String {
        if let db { return db }
        if let config { return try loadConfiguration(config).history.path }
        return HistoryStore.defaultPath
    }
}
