import ArgumentParser
import GymTimerHistory

/// `gymtimer athletes --db PATH export NAME [--csv]`: everything the database keeps of one
/// athlete (their entry, cards, workouts), JSON by default.
struct AthletesExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Print everything the database keeps of an athlete: JSON, or --csv.")

    @ParentCommand var parent: Athletes

    @Argument(help: "The athlete's name in the roster.")
    var name: String

    @Flag(name: .long, help: "CSV: their entry, an empty line, then their workouts as `history --csv` writes them.")
    var csv = false

    func run() throws {
        let export: AthleteExport
        do {
            export = try parent.roster(readOnly: true).export(name)
        } catch let error as RosterError {
            throw Athletes.failure(error)
        }
        try StandardOutput.report { csv ? export.csv() : try export.json() }
    }
}
