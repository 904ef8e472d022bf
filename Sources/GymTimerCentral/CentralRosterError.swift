import GymTimerHistory

/// Why a change to the chain's roster (`PostgresRoster`) did not happen: the roster refused it
/// (the same refusals, in the same words, as one gym's SQLite roster) or the central database
/// did not answer. One line each; nothing is half done (every change is one transaction).
public enum CentralRosterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A card already someone's, a name taken, an unknown athlete, a bad name.
    case refused(RosterError)
    /// The database could not be reached or failed.
    case database(CentralStoreError)

    public var description: String {
        switch self {
        case .refused(let error): "\(error)"
        case .database(let error): "\(error)"
        }
    }
}
