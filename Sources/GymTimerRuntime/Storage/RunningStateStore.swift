import GymTimerCore
import GymTimerDrivers

/// Where the loop saves its running state (`KioskStore`), seen without the history's record type.
public protocol RunningStateStore: AnyObject {
    /// How often records waiting for the database are retried.
    var retryInterval: Duration { get }
    /// Whether records are waiting for the database.
    var hasPending: Bool { get }
    /// Saves the state if it changed since the last save; `ended` marks a clean end.
    func save(kiosk: Kiosk, held: [String: HeldPress], at now: Moment, ended: Bool)
    /// `save`, told whether `kiosk` is the one the previous call had (untouched since): then
    /// it need not be compared again (the loop calls this on every wake-up).
    func save(kiosk: Kiosk, unchangedSinceLastCall: Bool, held: [String: HeldPress], at now: Moment, ended: Bool)
    /// Saves the state over the whole journal, so no earlier save's bytes remain (a forget).
    func saveOverwritingEverything(kiosk: Kiosk, held: [String: HeldPress], at now: Moment)
    /// Tries to write the waiting records again.
    func retry()
    /// Whether a run is held until the clock synchronises (`KioskStore.resumeOnSync`).
    var awaitsClock: Bool { get }
    /// The kiosk to run once the clock can be trusted, nil while it cannot or nothing is held.
    func resumeOnSync(_ current: Kiosk, at now: Moment) -> Kiosk?
}
