import ArgumentParser
import GymTimerCentral
import GymTimerCommandLine
import GymTimerCore
import GymTimerHistory
import GymTimerRosterCommands

/// `gymtimer-central athletes --db postgresql://… …` (what `gymtimer athletes --db
/// postgresql://…` runs): the chain's roster in the central database (`PostgresRoster`), with
/// the subcommands, output and refusals of one gym's `gymtimer athletes`. The subcommands read
/// `--db` from here.
struct CentralAthletes: RosterCommand {
    static let configuration = CommandConfiguration(
        commandName: "athletes",
        abstract: "The chain's roster in its central database: list, add, give a card, rename or forget an athlete.",
        subcommands: [
            RosterList<CentralAthletes>.self, RosterAdd<CentralAthletes>.self, RosterCard<CentralAthletes>.self,
            RosterRename<CentralAthletes>.self, RosterPublic<CentralAthletes>.self, RosterForget<CentralAthletes>.self,
        ])

    @OptionGroup var database: CentralDatabaseOptions

    /// The roster `--db` names, or a one-line usage error.
    func roster() throws -> PostgresRoster {
        try database.roster()
    }

    /// `error` as the command's one line and exit status: 1 when the database failed, else 2.
    static func failure(_ error: CentralRosterError) -> ExitCode {
        switch error {
        case .refused: CLIError.usage("\(error)")
        case .database: CLIError.failed("\(error)")
        }
    }

    func book(readOnly: Bool) throws -> any RosterBook { try roster() }

    static func failure(_ error: any Error) -> any Error {
        guard let refusal = error as? CentralRosterError else { return error }
        return failure(refusal) as ExitCode
    }

    static let forgetAbstract = "Forget an athlete: their name, cards and every gym's records of their cards are deleted from the central database."
    static let forgetAfterword =
        "The central collectors now tell every station of every gym to delete the card's records; backups are not touched: see \"Athletes across the chain\" in docs/chain.md."
}
