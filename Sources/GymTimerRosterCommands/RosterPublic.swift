import ArgumentParser
import GymTimerCore
import GymTimerHistory

/// `athletes --db DB public NAME initial|short|guest`: how the signed-out world (a member's
/// phone, the gym's TV) names the athlete on the leaderboard: first name and initial (the
/// default), their short name, or `guest` for a member who would rather not be named.
public struct RosterPublic<Parent: RosterCommand>: ParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "public",
            abstract: "Choose how the signed-out leaderboard names an athlete: initial (Anna B., the default), short (their short name) or guest.")
    }

    @ParentCommand var parent: Parent

    @Argument(help: "The athlete's name in the roster.")
    var name: String

    @Argument(help: "initial, short or guest.")
    var choice: String

    public init() {}

    public func validate() throws {
        guard PublicName(rawValue: choice) != nil else {
            throw ValidationError("how to name them: initial, short or guest (not \(choice.prefix(20).debugDescription))")
        }
    }

    public func run() throws {
        let book = try parent.book(readOnly: false)
        do {
            let athlete = try book.setPublicName(name, to: PublicName(rawValue: choice)!)
            print("Signed out, \(athlete.name) is shown as \(athlete.shownName).")
        } catch {
            throw Parent.failure(error)
        }
    }
}
