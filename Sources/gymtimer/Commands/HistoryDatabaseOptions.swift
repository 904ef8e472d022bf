import ArgumentParser
import GymTimerCore
import GymTimerHistory

/// Which history database `history` and `stats` read: `--db`, else the `[history] path` of
/// `--config`, else the kiosk's default; and which of its records (`--station`, `--athlete`).
struct HistoryDatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "The history database (default: the config's [history] path, else \(HistoryStore.defaultPath)); a chain's postgresql://… is read by gymtimer-central (`history|stats --db postgresql://… [--gym G] [--json]`).")
    var db: String?

    @Option(name: .long, help: "Config file whose [history] path to read.")
    var config: String?

    @Option(name: .long, help: "Only this fleet station's workouts (a database `gymtimer collect` fills).")
    var station: String?

    @Option(name: .long, help: "Only this athlete's workouts, on every station: their name in the gym's roster (`gymtimer athletes`), or a card's pseudonym as `athletes list` prints it.")
    var athlete: String?

    /// The records `--station` or `--athlete` name in the database at `path` (every one
    /// without either): `--athlete` is a name in the gym's roster (every card of theirs), else a
    /// card UID (every card of its owner's, or that card alone when the roster does not know it).
    /// Neither a name nor a UID, or both options, is a usage error.
    func scope(path: String) throws -> HistoryScope {
        switch (station, athlete) {
        case (nil, nil): return .all
        case (let station?, nil): return .station(station)
        case (nil, let text?):
            do {
                return try AthleteRoster.reading(path: path).scope(for: text)
            } catch {
                switch error {
                case .missingDatabase: throw CLIError.usage("\(HistoryError.missing(path: path))")
                case .unknownAthleteOrCard:
                    throw CLIError.usage(
                        "no athlete named \(text) in the roster of \(path), and not a card either (its pseudonym as `athletes list` prints it)")
                default: throw CLIError.usage("\(error)")
                }
            }
        case (_?, _?): throw CLIError.usage("--station and --athlete cannot be used together: give one")
        }
    }

    func path() throws -> String {
        if let db { return db }
        if let config { return try loadConfiguration(config).history.path }
        return HistoryStore.defaultPath
    }
}
