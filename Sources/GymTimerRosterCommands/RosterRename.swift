import ArgumentParser
import GymTimerHistory

/// `athletes --db DB rename NAME [--to NEW] [--short X]`: a new name and/or short name.
public struct RosterRename<Parent: RosterCommand>: ParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "rename", abstract: "Rename an athlete and/or set their short name; their cards and records stay theirs.")
    }

    @ParentCommand var parent: Parent

    @Argument(help: "The athlete's name in the roster.")
    var name: String

    @Option(name: .long, help: "Their new name.")
    var to: String?

    @Option(name: .long, help: "Their new short name: 1 to 4 characters a digit draws.")
    var short: String?

    public init() {}

    public func validate() throws {
        guard to != nil || short != nil else { throw ValidationError("give --to NEW, --short X, or both") }
    }

    public func run() throws {
        let book = try parent.book(readOnly: false)
        do {
            print("Now \(RosterText.summary(try book.rename(name, to: to, shortName: short))).")
        } catch {
            throw Parent.failure(error)
        }
    }
}
