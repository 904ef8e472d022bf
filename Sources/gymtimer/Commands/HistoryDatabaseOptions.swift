import ArgumentParser
import GymTimerCore
import GymTimerHistory

/// Which history database `history` and `stats` read: `--db`, else the `[history] path` of
/// `--config`, else the kiosk's default; and which of its records (`--station`, `--athlete`).
struct HistoryDatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "The history database (default: the config's [history] path, else \(HistoryStore.defaultPath)).")
    var db: String?

    @Option(name: .long, help: "Config file whose [history] path to read.")
    var config: String?

    @Option(name: .long, help: "Only this fleet station's workouts (a database `gymtimer collect` fills).")
    var station: String?

    @Option(name: .long, help: "Only this athlete's workouts, on every station: their card's UID in hex (e.g. 04A1B2C3).")
    var athlete: String?

    /// The records `--station` or `--athlete` name (every one without either); a card that is no
    /// UID, or both options, is a usage error.
    func scope() throws -> HistoryScope {
        switch (station, athlete) {
        case (nil, nil): return .all
        case (let station?, nil): return .station(station)
        case (nil, let text?):
            guard let card = CardID(hex: text) else {
                throw CLIError.usage("bad card for --athlete: \(text) (expected a card UID in hex, 1 to 10 bytes, e.g. 04A1B2C3)")
            }
            return .athlete(card)
        case (_?, _?): throw CLIError.usage("--station and --athlete cannot be used together: give one")
        }
    }

    func path() throws -> String {
        if let db { return db }
        if let config { return try loadConfiguration(config).history.path }
        return HistoryStore.defaultPath
    }
}
