import Foundation
import Glibc
import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerFleetLink
import GymTimerHardware
import GymTimerHAL
import GymTimerRuntime

/// The fleet station of `gymtimer run` (fleet.md), hooked into the kiosk's one loop: its
/// socket is one more source of the GPIO poll, its keep-alive, back-off and scheduled starts
/// are one more timed driver, finished workouts go to its outbox beside the history. Without
/// a `[fleet]` section every part is empty and nothing of the fleet runs.
final class KioskFleet {
    let station: FleetStation?

    /// `origin` is the runtime's, so the station's moments are the loop's.
    init(
        _ configuration: GymTimerConfiguration, origin: ContinuousClock.Instant, log: @escaping @Sendable (String) -> Void
    ) throws(KioskStartError) {
        let password: String?
        do {
            password = try configuration.fleet?.passwordFile.map(FleetPassword.read)
        } catch {
            throw .refused("\(error)")
        }
        let clock = ContinuousClock()
        station = FleetStation.forKiosk(
            configuration, historyPath: configuration.history.path, password: password,
            now: { Moment(origin.duration(to: clock.now)) }, log: log)
    }

    /// The timed drivers to add to the loop's.
    var drivers: [any TimedDriver] { station.map { [$0] } ?? [] }
    /// The sources to add to the GPIO poll's.
    var sources: [any PollSource] { station.map { [$0] } ?? [] }

    /// `history`, and the outbox beside it.
    func history(_ history: any WorkoutHistory) -> any WorkoutHistory {
        guard let station else { return history }
        return HistoryFanOut([history, FleetHistory(station: station)])
    }

    /// Commands reach the kiosk through `runtime`.
    func attach(_ runtime: KioskRuntime<ContinuousClock>) {
        station?.deliver = { [unowned runtime] event, moment in runtime.inject(event, at: moment) }
    }

    /// After every wake-up: the state, if it changed.
    func observe(_ runtime: KioskRuntime<ContinuousClock>) {
        station?.observe(runtime.kiosk, display: runtime.shownDisplay)
    }

    /// Says `offline` and disconnects.
    func stop() { station?.stop() }
}
