import ArgumentParser
import GymTimerCentral

/// `gymtimer-central athletes --db URL forget NAME`: their entry, cards and every gym's
/// workouts of their cards are deleted from the central database in one transaction.
struct CentralAthletesForget: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Forget an athlete: their name, cards and every gym's records of their cards are deleted from the central database.")

    @ParentCommand var parent: CentralAthletes

    @Argument(help: "The athlete's name in the roster.")
    var name: String

    func run() throws {
        let roster = try parent.roster()
        do {
            let forgotten = try roster.forget(name)
            let cards = forgotten.athlete.cards.count
            print("Forgot \(forgotten.athlete.name): \(cards) card\(cards == 1 ? "" : "s") and \(forgotten.workouts) workout\(forgotten.workouts == 1 ? "" : "s") removed from \(roster.database).")
            print("The central collectors now tell every station of every gym to delete the card's records; backups are not touched: see \"Athletes across the chain\" in docs/chain.md.")
        } catch {
            throw CentralAthletes.failure(error)
        }
    }
}
