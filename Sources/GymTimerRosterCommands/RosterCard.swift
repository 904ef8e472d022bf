import ArgumentParser
import GymTimerHistory

/// `athletes --db DB card NAME --add UID`: one more card (a second fob) for an athlete.
public struct RosterCard<Parent: RosterCommand>: ParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "card", abstract: "Give an athlete one more card; a card already someone else's is refused.")
    }

    @ParentCommand var parent: Parent

    @Argument(help: "The athlete's name in the roster.")
    var name: String

    @Option(name: .customLong("add"), help: "The card's UID in hex (e.g. 04A1B2C3).")
    var card: String

    public init() {}

    public func run() throws {
        let card = try RosterText.card(card, option: "--add")
        let book = try parent.book(readOnly: false)
        do {
            print("\(RosterText.summary(try book.addCard(card, to: name))).")
        } catch {
            throw Parent.failure(error)
        }
    }
}
