import ArgumentParser
import GymTimerCentral

/// `gymtimer-central athletes --db URL add NAME --card UID [--short AnnA]`: a new athlete of the chain and their card.
struct CentralAthletesAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add an athlete with their card; a card already someone's is refused.")

    @ParentCommand var parent: CentralAthletes

    @Argument(help: "Their name: 1 to 64 printable characters, unique in the chain's roster.")
    var name: String

    @Option(name: .long, help: "Their card's UID in hex (e.g. 04A1B2C3; `gymtimer selftest` prints a tapped card's).")
    var card: String

    @Option(name: .long, help: "What the display shows when they tap in: 1 to 4 characters a digit draws (default: from the name, Anna → AnnA).")
    var short: String?

    func run() throws {
        let card = try CentralAthletes.card(card, option: "--card")
        do {
            let athlete = try parent.roster().add(name: name, card: card, shortName: short)
            print("Added \(CentralAthletes.summary(athlete)).")
        } catch let error as CentralRosterError {
            throw CentralAthletes.failure(error)
        }
    }
}
