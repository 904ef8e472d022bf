import Foundation
import GymTimerCore
import GymTimerFleet

/// What the collector's desk (`CollectorDesk`) reads and edits for one gym's console: the
/// roster and the cards no athlete has, an athlete's page, today's scores, and the coach's
/// edits. One gym's SQLite history (`GymDatabase`) or a chain gym's rows in the central
/// PostgreSQL (`PostgresGymDesk`, GymTimerCentral). Each failure is a sentence for the coach's
/// page (`GymDeskProblem`); what is made of the rows is made by the same pure builders
/// (`GymScores.make`, `GymDatabase.roster`, `GymAthleteSummary.make`) whatever the store.
public protocol GymDeskStore {
    /// The zone the gym's days are in.
    var timeZone: TimeZone { get }
    /// The wall clock "today" is read on.
    var wall: WallClock { get }
    /// The roster, and the cards of recent records and of `onStations` that no athlete has.
    func roster(onStations: [String: CardID]) -> Result<GymRoster, GymDeskProblem>
    /// Every athlete of the roster, by name.
    func athletes() -> Result<[GymRoster.Athlete], GymDeskProblem>
    /// Athlete `id`'s page, as of now; nil when the roster has no such athlete.
    func summary(id: Int64) -> Result<GymAthleteSummary?, GymDeskProblem>
    /// `name` (and `short`) for a new `card`; what was done, as the page says it.
    func name(card: CardID, name: String, short: String?) -> Result<String, GymDeskProblem>
    /// Athlete `id` renamed, given a short name and/or shown to the signed-out world as `shown`.
    func rename(id: Int64, name: String?, short: String?, shown: PublicName?) -> Result<String, GymDeskProblem>
    /// The program result `record` set to `division`.
    func setDivision(record: String, division: Division) -> Result<String, GymDeskProblem>
    /// The program result `record` voided: no best or leaderboard counts it any more.
    func void(record: String) -> Result<String, GymDeskProblem>
    /// Today's scores, as of now.
    func scores() -> Result<GymScores, GymDeskProblem>
}
