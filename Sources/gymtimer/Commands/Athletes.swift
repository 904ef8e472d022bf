import ArgumentParser
import GymTimerCore
import GymTimerHistory

/// `gymtimer athletes --db PATH …`: the gym's roster in its database (the collector's): who
/// each card is, and forgetting an athlete. The subcommands read `--db` from here.
struct Athletes: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The gym's roster in its database: list, add, give a card, rename, merge, forget or export an athlete.",
        subcommands: [
            AthletesList.self, AthletesAdd.self, AthletesCard.self, AthletesRename.self, AthletesMerge.self,
            AthletesForget.self, AthletesExport.self,
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

    /// The card `text` names, or a one-line usage error naming `option`.
    static func card(_ text: String, option: String) throws -> CardID {
        guard let card = CardID(hex: text) else {
            throw CLIError.usage("bad card for \(option): \(text) (expected a card UID in hex, 1 to 10 bytes, e.g. 04A1B2C3)")
        }
        return card
    }

    /// One line about `athlete`: `Anna Berg (AnnA), cards 04A1B2C3, 04FFEE01`.
    static func summary(_ athlete: RosterAthlete) -> String {
        let noun = athlete.cards.count == 1 ? "card" : "cards"
        return "\(athlete.name) (\(athlete.shortName)), \(noun) \(athlete.cards.map(\.hex).joined(separator: ", "))"
    }
}
