import ArgumentParser
import Foundation
import GymTimerCentral
import GymTimerCommandLine
import GymTimerCore
import GymTimerHistory

/// `gymtimer-central stats`: totals, points, streaks, achievements and bests over the chain's
/// records (`StationStats.of`, the rules `gymtimer stats` applies to one gym's): of one gym, or
/// one athlete's card over every gym they trained at.
struct CentralStats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Totals, points, streaks and bests over the chain's records: every gym, one gym, or one athlete's card.")

    @OptionGroup var database: CentralDatabaseOptions

    @Option(name: .long, help: "Only this gym's workouts.")
    var gym: String?

    @Option(name: .long, help: "Only this athlete's card (its UID in hex, e.g. 04A1B2C3), at every gym.")
    var athlete: String?

    @Flag(name: .long, help: "JSON, as `gymtimer stats --json` prints it.")
    var json = false

    func run() throws {
        var card: CardID?
        if let athlete {
            guard let parsed = CardID(hex: athlete) else { throw CLIError.usage("--athlete \(athlete): a card's UID in hex (1 to 10 bytes, e.g. 04A1B2C3)") }
            card = parsed
        }
        let workouts: [StoredWorkout]
        do {
            workouts = try database.store().records(gym: gym).map(\.workout).filter { card == nil || $0.athlete == card }
        } catch let error as CentralStoreError {
            throw CLIError.failed("\(error)")
        }
        let stats = StationStats.of(workouts, today: LocalDay(WallClock.system.date, in: .current))
        try StandardOutput.report { try HistoryOutput.report(stats, json: json, timeZone: .current) }
    }
}
