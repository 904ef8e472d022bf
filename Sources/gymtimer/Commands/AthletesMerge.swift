import ArgumentParser
import GymTimerHistory
import GymTimerRosterCommands

/// `gymtimer athletes --db PATH merge NAME --into OTHER`: two entries of one person become one.
struct AthletesMerge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge an athlete into another (one person, two entries): their cards, and so their records, become the other's.")

    @ParentCommand var parent: Athletes

    @Argument(help: "The athlete whose entry goes.")
    var name: String

    @Option(name: .long, help: "The athlete who keeps their entry and gets the cards.")
    var into: String

    func run() throws {
        do {
            let athlete = try parent.roster().merge(name, into: into)
            print("Merged \(name) into \(RosterText.summary(athlete)).")
        } catch let error as RosterError {
            throw Athletes.failure(error)
        }
    }
}
