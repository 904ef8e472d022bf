import ArgumentParser
import GymTimerCommandLine
import GymTimerCore
import GymTimerHistory

/// The parent of the roster's subcommands (`RosterList`, `RosterAdd`, `RosterCard`,
/// `RosterRename`, `RosterPublic`, `RosterForget`): `gymtimer athletes --db FILE` over one gym's SQLite, or
/// `gymtimer-central athletes --db postgresql://…` over the chain's. One set of commands, so the
/// two rosters take the same words and print the same lines; what differs is here.
public protocol RosterCommand: ParsableCommand {
    /// The roster `--db` names (for `list`, only to read); one that cannot be opened is the
    /// command's one line and exit status.
    func book(readOnly: Bool) throws -> any RosterBook
    /// What `error` from the roster means: its line and exit status (2 for a refusal, 1 when
    /// the store failed); any other error as it is.
    static func failure(_ error: any Error) -> any Error
    /// What `forget` deletes, for its help.
    static var forgetAbstract: String { get }
    /// What `forget` says after the deletion: who tells the stations, and where backups stand.
    static var forgetAfterword: String { get }
}

/// The lines and checks every roster command shares.
public enum RosterText {
    /// One line about `athlete`: `Anna Berg (AnnA), cards 1F0C…, 9A22…` (each card's pseudonym).
    public static func summary(_ athlete: RosterAthlete) -> String {
        let noun = athlete.cards.count == 1 ? "card" : "cards"
        return "\(athlete.name) (\(athlete.shortName)), \(noun) \(athlete.cards.map(\.hex).joined(separator: ", "))"
    }
}
