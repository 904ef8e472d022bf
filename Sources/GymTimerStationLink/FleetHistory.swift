import Foundation
import GymTimerCore
import GymTimerHistory
import GymTimerSystem

/// Hands each finished workout to the fleet station's outbox, stamped with the wall-clock time
/// it finished (as the local history stamps it), beside the local history.
public final class FleetHistory: WorkoutHistory {
    private let station: FleetStation
    private let timeZone: TimeZone
    private let wall: WallClock
    private let clockSynchronised: () -> Bool?

    /// `clockSynchronised`: whether the wall clock is synchronised now (see `StoredWorkout.clockSynchronised`).
    public init(
        station: FleetStation, timeZone: TimeZone = .current, wall: WallClock = .system,
        clockSynchronised: @escaping () -> Bool? = { nil }
    ) {
        self.station = station
        self.timeZone = timeZone
        self.wall = wall
        self.clockSynchronised = clockSynchronised
    }

    public func record(_ workout: WorkoutRecord) {
        // From the Unix seconds the station's messages carry, so the record's date is theirs to the bit.
        let completedAt = Date(timeIntervalSince1970: wall.now)
        station.record(StoredWorkout(workout, completedAt: completedAt, timeZone: timeZone, clockSynchronised: clockSynchronised()))
    }
}
