import ArgumentParser
import GymTimerCommandLine
import GymTimerHistory

/// `athletes --db DB add NAME --card UID [--short AnnA]`: a new athlete and their card.
public struct RosterAdd<Parent: RosterCommand>: ParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "add", abstract: "Add an athlete with their card; a card already someone's is refused.")
    }

    @ParentCommand var parent: Parent

    @Argument(help: "Their name: 1 to 64 printable characters, unique in the roster.")
    var name: String

    @Option(name: .long, help: "Their card: its UID in hex (e.g. 04A1B2C3; `gymtimer selftest` prints a tapped card's), with --card-key, or its pseudonym.")
    var card: String

    @Option(name: .customLong("card-key"), help: "The gym's card key file (the stations' [athletes] card_key): turns a typed UID into the card's pseudonym, the only form stored.")
    var cardKey: String?

    @Option(name: .long, help: "What the display shows when they tap in: 1 to 4 characters a digit draws (default: from the name, Anna → AnnA).")
    var short: String?

    public init() {}

    public func run() throws {
        let card = try CardArgument.card(card, option: "--card", keyFile: cardKey)
        let book = try parent.book(readOnly: false)
        do {
            print("Added \(RosterText.summary(try book.add(name: name, card: card, shortName: short))).")
        } catch {
            throw Parent.failure(error)
        }
    }
}
