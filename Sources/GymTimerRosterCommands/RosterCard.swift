import ArgumentParser
import GymTimerCommandLine
import GymTimerHistory

/// `athletes --db DB card NAME --add UID`: one more card (a second fob) for an athlete.
public struct RosterCard<Parent: RosterCommand>: ParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "card", abstract: "Give an athlete one more card; a card already someone else's is refused.")
    }

    @ParentCommand var parent: Parent

    @Argument(help: "The athlete's name in the roster.")
    var name: String

    @Option(name: .customLong("add"), help: "The card: its UID in hex (e.g. 04A1B2C3), with --card-key, or its pseudonym.")
    var card: String

    @Option(name: .customLong("card-key"), help: "The gym's card key file (the stations' [athletes] card_key): turns a typed UID into the card's pseudonym, the only form stored.")
    var cardKey: String?

    public init() {}

    public func run() throws {
        let card = try CardArgument.card(card, option: "--add", keyFile: cardKey)
        let book = try parent.book(readOnly: false)
        do {
            print("\(RosterText.summary(try book.addCard(card, to: name))).")
        } catch {
            throw Parent.failure(error)
        }
    }
}
