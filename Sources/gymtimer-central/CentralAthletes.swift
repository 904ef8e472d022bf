import ArgumentParser
import GymTimerCentral
import GymTimerCommandLine
import GymTimerCore
import GymTimerHistory

/// `gymtimer-central athletes --db postgresql://… …` (what `gymtimer athletes --db
/// postgresql://…` runs): the chain's roster in the central database (`PostgresRoster`), with
/// the subcommands, output and refusals of one gym's `gymtimer athletes`. The subcommands read
/// `--db` from here.
struct CentralAthletes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "athletes",
        abstract: "The chain's roster in its central database: list, add, give a card, rename or forget an athlete.",
        subcommands: [CentralAthletesList.self, CentralAthletesAdd.self, CentralAthletesCard.self, CentralAthletesRename.self, CentralAthletesForget.self])

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

    /// The card `text` names, or a one-line usage error naming `option`.
    static func card(_ text: String, option: String) throws -> CardID {
        guard let card = CardID(hex: text) else {
            throw CLIError.usage("bad card for \(option): \(text) (expected a card UID in hex, 1 to 10 bytes, e.g. 04A1B2C3)")
        }
        return card
    }

    /// One line about `athlete`: `Anna Berg (AnnA), cards 04A1B2C3, 04FFEE01` (as `gymtimer athletes`).
    static func summary(_ athlete: RosterAthlete) -> String {
        let noun = athlete.cards.count == 1 ? "card" : "cards"
        return "\(athlete.name) (\(athlete.shortName)), \(noun) \(athlete.cards.map(\.hex).joined(separator: ", "))"
    }
}
