import ArgumentParser
import GymTimerCentral

/// `gymtimer-central athletes --db URL card NAME --add UID`: one more card for an athlete of the chain.
struct CentralAthletesCard: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card", abstract: "Give an athlete one more card; a card already someone else's is refused.")

    @ParentCommand var parent: CentralAthletes

    @Argument(help: "The athlete's name in the roster.")
    var name: String

    @Option(name: .customLong("add"), help: "The card's UID in hex (e.g. 04A1B2C3).")
    var card: String

    func run() throws {
        let card = try CentralAthletes.card(card, option: "--add")
        do {
            let athlete = try parent.roster().addCard(card, to: name)
            print("\(CentralAthletes.summary(athlete)).")
        } catch let error as CentralRosterError {
            throw CentralAthletes.failure(error)
        }
    }
}
