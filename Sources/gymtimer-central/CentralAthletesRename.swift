import ArgumentParser
import GymTimerCentral

/// `gymtimer-central athletes --db URL rename NAME [--to NEW] [--short X]`: a new name and/or short name.
struct CentralAthletesRename: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Rename an athlete and/or set their short name; their cards and records stay theirs.")

    @ParentCommand var parent: CentralAthletes

    @Argument(help: "The athlete's name in the roster.")
    var name: String

    @Option(name: .long, help: "Their new name.")
    var to: String?

    @Option(name: .long, help: "Their new short name: 1 to 4 characters a digit draws.")
    var short: String?

    func validate() throws {
        guard to != nil || short != nil else { throw ValidationError("give --to NEW, --short X, or both") }
    }

    func run() throws {
        do {
            let athlete = try parent.roster().rename(name, to: to, shortName: short)
            print("Now \(CentralAthletes.summary(athlete)).")
        } catch let error as CentralRosterError {
            throw CentralAthletes.failure(error)
        }
    }
}
