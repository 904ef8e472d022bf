import ArgumentParser
import GymTimerHistory

/// `gymtimer athletes --db PATH card NAME --add UID`: one more card (a second fob) for an athlete.
struct AthletesCard: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card", abstract: "Give an athlete one more card; a card already someone else's is refused.")

    @ParentCommand var parent: Athletes

    @Argument(help: "The athlete's name in the roster.")
    var name: String

    @Option(name: .customLong("add"), help: "The card's UID in hex (e.g. 04A1B2C3).")
    var card: String

    func run() throws {
        let card = try Athletes.card(card, option: "--add")
        do {
            let athlete = try parent.roster().addCard(card, to: name)
            print("\(Athletes.summary(athlete)).")
        } catch let error as RosterError {
            throw Athletes.failure(error)
        }
    }
}
