import Foundation
import GymTimerCore

/// Where the collector's desk (`CollectorDesk`) reads each gym's: one gym's own store (its
/// `GymDatabase`, gym nil), or, at a chain's centre, each gym's rows in the central database
/// (`PostgresGymDesk`, GymTimerCentral) and which gyms have records today (their scores are
/// retained without being asked for).
public struct GymDeskStores {
    /// The zone the days are in, and the clock "today" is read on.
    public let timeZone: TimeZone
    public let wall: WallClock
    /// True at a chain's centre: every ask and score is of a named gym.
    public let isChain: Bool
    /// `gym`'s store (nil: one gym's own).
    let store: (String?) -> any GymDeskStore
    /// The gyms with records since the instant given (none for one gym).
    let gymsSince: (Date) -> Result<[String], GymDeskProblem>

    /// One gym's desk over `database`.
    public static func gym(_ database: any GymDeskStore) -> GymDeskStores {
        GymDeskStores(timeZone: database.timeZone, wall: database.wall, isChain: false, store: { _ in database }, gymsSince: { _ in .success([]) })
    }

    /// A chain's central desk: `store(gym)` reads one gym's rows, `gymsSince(date)` names the
    /// gyms with records since `date`.
    public static func chain(
        timeZone: TimeZone, wall: WallClock, store: @escaping (String) -> any GymDeskStore,
        gymsSince: @escaping (Date) -> Result<[String], GymDeskProblem>
    ) -> GymDeskStores {
        GymDeskStores(timeZone: timeZone, wall: wall, isChain: true, store: { store($0 ?? "") }, gymsSince: gymsSince)
    }
}
