import GymTimerCore
import GymTimerHistory

/// Where a collector's `FleetRosterPublisher` reads the athletes it tells the stations of: one
/// gym's SQLite history (`HistoryStore`) or a chain's PostgreSQL roster (`PostgresRoster`,
/// GymTimerCentral). Blocking, each call bounded by its store's time-outs; what throws is
/// logged and tried again on the next check.
public protocol RosterSource: AnyObject {
    /// A value that changes when another process changed the roster (SQLite's data_version, a
    /// digest of the central roster): asked every `FleetRosterPublisher.rosterCheck`, so it
    /// must be cheap.
    func rosterStamp() throws -> String
    /// Every card of the roster (with `only`, every card of the athletes owning one of those),
    /// with its athlete's short name and bests over every record of their cards.
    func rosterCards(only: Set<CardID>?) throws -> [RosterCard]
    /// The forget requests still waiting for the stations' answers, oldest first.
    func forgetRequests() throws -> [ForgetRequest]
    /// `station` answered request `id` (done).
    func recordForgetAnswer(request id: Int64, station: String) throws
    /// Request `id` is done (every station answered, or its patience ran out); returns how
    /// many late records of its card were deleted.
    func completeForget(request id: Int64) throws -> Int
}

extension HistoryStore: RosterSource {
    /// `PRAGMA data_version`: changes only when another connection commits to the file.
    public func rosterStamp() throws -> String { "\(try dataVersion())" }
}
