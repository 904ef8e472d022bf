import Foundation
import GymTimerCore
import GymTimerHistory

/// Hands each finished workout to the fleet station's outbox, stamped with the wall-clock time
/// it finished (as the local history stamps it), beside the local history.
public final class FleetHistory: WorkoutHistory {
    private let station: FleetStation
    private let timeZone: TimeZone
    private let now: () -> Date
    private let clockSynchronised: () -> Bool?

    /// `clockSynchronised`: whether the wall clock is synchronised now (see `StoredWorkout.clockSynchronised`).
    public init(
        station: FleetStation, timeZone: TimeZone = .current, now: @escaping () -> Date = Date.init,
        clockSynchronised: @escaping () -> Bool? = { nil }
    ) {
        self.station = station
        self.timeZone = timeZone
        self.now = now
        self.clockSynchronised = clockSynchronised
    }

    public func record(_ workout: WorkoutRecord) {
        station.record(StoredWorkout(workout, completedAt: now(), timeZone: timeZone, clockSynchronised: clockSynchronised()))
    }
}
