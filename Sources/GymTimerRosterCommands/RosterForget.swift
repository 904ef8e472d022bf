import ArgumentParser
import GymTimerHistory

/// `athletes --db DB forget NAME`: an erasure — their entry, cards and every record of their
/// cards go (`Parent.forgetAbstract` says from where), and the stations are told.
public struct RosterForget<Parent: RosterCommand>: ParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "forget", abstract: Parent.forgetAbstract)
    }

    @ParentCommand var parent: Parent

    @Argument(help: "The athlete's name in the roster.")
    var name: String

    public init() {}

    public func run() throws {
        let book = try parent.book(readOnly: false)
        do {
            let forgotten = try book.forgetAthlete(name)
            let cards = forgotten.athlete.cards.count
            print("Forgot \(forgotten.athlete.name): \(cards) card\(cards == 1 ? "" : "s") and \(forgotten.workouts) workout\(forgotten.workouts == 1 ? "" : "s") removed from \(book.place).")
            print(Parent.forgetAfterword)
        } catch {
            throw Parent.failure(error)
        }
    }
}
