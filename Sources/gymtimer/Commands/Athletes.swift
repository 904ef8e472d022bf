import ArgumentParser
import GymTimerCore
import GymTimerHistory
import GymTimerRosterCommands

/// `gymtimer athletes --db PATH …`: the gym's roster in its database (the collector's): who
/// each card is, and forgetting an athlete. The subcommands read `--db` from here; all but
/// `merge` and `export` are the chain's too (GymTimerRosterCommands).
struct Athletes: RosterCommand {
    static let configuration = CommandConfiguration(
        abstract: "The gym's roster in its database: list, add, give a card, rename, merge, forget or export an athlete.",
        subcommands: [
            RosterList<Athletes>.self, RosterAdd<Athletes>.self, RosterCard<Athletes>.self, RosterRename<Athletes>.self,
            RosterPublic<Athletes>.self, AthletesMerge.self, RosterForget<Athletes>.self, AthletesExport.self,
        ])

    @Option(name: .long, help: "The gym's database (the one `gymtimer collect --db` fills); it must exist.")
    var db: String

    /// The roster, opened for changes (or only to read); a missing file is a one-line error.
    func roster(readOnly: Bool = false) throws -> AthleteRoster {
        do {
            return readOnly ? try AthleteRoster.reading(path: db) : try AthleteRoster.open(path: db)
        } catch {
            throw Self.failure(error)
        }
    }

    /// `error` as the command's one line and exit status: 1 when the file itself failed, else 2.
    static func failure(_ error: RosterError) -> ExitCode {
        if case .database(let cause) = error, case .missing = cause {
            return CLIError.usage("\(error)")
        }
        if case .database = error { return CLIError.failed("\(error)") }
        return CLIError.usage("\(error)")
    }

    func book(readOnly: Bool) throws -> any RosterBook { try roster(readOnly: readOnly) }

    static func failure(_ error: any Error) -> any Error {
        guard let refusal = error as? RosterError else { return error }
        return failure(refusal) as ExitCode
    }

    static let forgetAbstract =
        "Forget an athlete: their name, cards and every record of their cards are deleted from the database, its free space wiped."
    static let forgetAfterword =
        "The collector now tells every station to delete the card's records; backups are not touched: see \"The roster\" in docs/history.md."
}
