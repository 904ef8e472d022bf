import ArgumentParser
import GymTimerHistory

/// `gymtimer athletes --db PATH forget NAME`: an erasure — their entry, cards and records go,
/// and the file is rewritten so none of its bytes still hold them.
struct AthletesForget: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Forget an athlete: their name, cards and every record of their cards are deleted from the database, its free space wiped.")

    @ParentCommand var parent: Athletes

    @Argument(help: "The athlete's name in the roster.")
    var name: String

    func run() throws {
        do {
            let forgotten = try parent.roster().forget(name)
            let cards = forgotten.athlete.cards.count
            print("Forgot \(forgotten.athlete.name): \(cards) card\(cards == 1 ? "" : "s") and \(forgotten.workouts) workout\(forgotten.workouts == 1 ? "" : "s") removed from \(parent.db).")
            print("The collector now tells every station to delete the card's records; backups are not touched: see \"The roster\" in docs/history.md.")
        } catch let error as RosterError {
            throw Athletes.failure(error)
        }
    }
}
