import ArgumentParser
import Foundation
import GymTimerCentral
import GymTimerCommandLine
import GymTimerCore
import GymTimerHistory

/// `gymtimer-central stats`: totals, points, streaks, achievements and bests over the chain's
/// records (`StationStats.of`, the rules `gymtimer stats` applies to one gym's): of one gym, or
/// one athlete over every gym they trained at — named in the chain's roster (every card of
/// theirs) or by a card (every card of its owner's; that card alone if nobody's).
struct CentralStats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Totals, points, streaks and bests over the chain's records: every gym, one gym, or one athlete's card.")

    @OptionGroup var database: CentralDatabaseOptions

    @Option(name: .long, help: "Only this gym's workouts.")
    var gym: String?

    @Option(name: .long, help: "Only this athlete, at every gym: their name in the chain's roster, or a card's pseudonym as `athletes list` prints it.")
    var athlete: String?

    @Flag(name: .long, help: "JSON, as `gymtimer stats --json` prints it.")
    var json = false

    func run() throws {
        var cards: Set<CardID>?
        if let athlete {
            do {
                cards = Set(try database.roster().cards(for: athlete))
            } catch let error as CentralRosterError {
                throw CentralAthletes.failure(error)
            }
        }
        let workouts: [StoredWorkout]
        do {
            workouts = try database.store().records(gym: gym).map(\.workout).filter { workout in
                guard let cards else { return true }
                return workout.athlete.map(cards.contains) ?? false
            }
        } catch let error as CentralStoreError {
            throw CLIError.failed("\(error)")
        }
        let stats = StationStats.of(workouts, today: LocalDay(WallClock.system.date, in: .current))
        try StandardOutput.report { try HistoryOutput.report(stats, json: json, timeZone: .current) }
    }
}
