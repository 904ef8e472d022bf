import Foundation
import GymTimerCore
import GymTimerHistory
import GymTimerRuntime
import GymTimerSystem

/// A kiosk's data directory, opened the one way `run` and the real-time simulators (terminal
/// and headless) open it: locked, so one controller at a time uses it; its SQLite history; its
/// journal of the running state, with what an earlier process left there. `runtime` makes the
/// loop that carries on from it. Its moments are on the wall clock's timeline
/// (`wallClockOrigin`), so a stored deadline names the same instant after a restart.
public final class KioskDataDirectory {
    public let path: String
    public let history: HistoryStore
    /// The running-state journal, and the records it keeps while the database cannot take them.
    public let store: KioskStore<HistoryStore>
    /// What an earlier process stored; nil when there was nothing (or nothing to trust).
    public let stored: StoredKiosk<StoredWorkout>?
    private let faults: FaultLog
    private let lock: DataDirectoryLock?
    /// Hears the wall clock step, for the loop's blocking point: add it to the waiter's sources
    /// (`runtime` hands it to the loop, which listens while a run is held for the clock).
    public let clockSteps: ClockStepSource

    /// Locks `path` and opens the history (at `historyPath`, default `path/history.sqlite`) and
    /// the journal. A directory another process holds is refused, naming it (`.held`). One
    /// that cannot be locked at all is refused too, unless `unlockable` takes the error: then
    /// it is used without the lock (`run`, whose timer must not stay dark for it). A directory
    /// that does not exist yet is locked once the history has made it.
    public init(
        path: String, historyPath: String? = nil, faults: FaultLog,
        unlockable: ((DataDirectoryLockError) -> Void)? = nil
    ) throws(DataDirectoryLockError) {
        self.path = path
        self.faults = faults
        var tried = false
        func takeLock() throws(DataDirectoryLockError) -> DataDirectoryLock? {
            tried = true
            do {
                return try DataDirectoryLock(directory: path)
            } catch {
                guard case .cannotLock = error, let unlockable else { throw error }
                unlockable(error)
                return nil
            }
        }
        var lock: DataDirectoryLock?
        if FileManager.default.fileExists(atPath: path) { lock = try takeLock() }
        // Never stops the start: a corrupt database is replaced, an unusable one retried.
        history = HistoryStore.opening(path: historyPath ?? path + "/history.sqlite", faults: faults)
        if !tried && FileManager.default.fileExists(atPath: path) { lock = try takeLock() }
        self.lock = lock
        store = KioskStore(directory: path, history: history, faults: faults)
        // A real-time kiosk: each save notes the clocks, and a restore decides how far to trust them.
        store.clock = { ClockReading.now() }
        // A record's date is marked when the wall clock it was taken from is not synchronised.
        history.clockSynchronised = { ClockReading.now().synchronised }
        clockSteps = ClockStepSource(faults: faults)
        stored = store.load()
    }

    /// The loop, carrying on from what was stored: the stored kiosk under today's `settings`
    /// (`KioskStore.restore`), its state saved here as it changes, and the presses the previous
    /// controller accepted taken up if their buttons are still down. `origin` must be on the
    /// wall clock's timeline; the stored moments are moved onto it as far as the clock can be
    /// trusted (`ClockTrust`). The other arguments are `KioskRuntime`'s.
    public func runtime<C: Clock>(
        settings: KioskSettings, clock: C, origin: C.Instant, devices: KioskDevices, history: any WorkoutHistory,
        timing: InputTiming = InputTiming(), extraDrivers: [any TimedDriver] = [], sleepClock: SleepClock? = nil
    ) -> KioskRuntime<C> where C.Duration == Duration {
        let key = cardKey(settings.athletes)
        var kiosk = store.restore(stored, settings: settings, at: Moment(origin.duration(to: clock.now)))
        if case .success(let key) = key {
            // Cards stored before pseudonyms (the history's, the journal's) carried to them first.
            self.history.cardKey = key
            kiosk = kiosk.carryingCards(with: key)
        }
        let runtime = KioskRuntime(
            kiosk: kiosk, clock: clock, origin: origin, devices: devices,
            history: history, timing: timing, faults: faults, extraDrivers: extraDrivers, store: store,
            held: stored?.held ?? [:], clockSteps: clockSteps, sleepClock: sleepClock)
        runtime.cardKey = key
        return runtime
    }

    /// Where a station keeps its own card key when `[athletes] card_key` names none.
    public var ownCardKeyPath: String { path + "/card.key" }

    /// The gym's card key: the file `[athletes] card_key` names, or the station's own in this
    /// directory, made at its first start (said in the log, since a gym of several stations must
    /// copy one key to them all). A key that cannot be read is logged, and the loop refuses taps
    /// saying why: the timer runs on.
    public func cardKey(_ settings: AthleteSettings) -> Result<CardKey, CardKeyFile.Problem> {
        do throws(CardKeyFile.Problem) {
            if let configured = settings.cardKeyPath { return .success(try CardKeyFile.read(configured)) }
            let own = try CardKeyFile.readOrMake(ownCardKeyPath)
            if own.made {
                faults.note("card key: made \(ownCardKeyPath) for this station's cards; a gym of several stations gives them all one key ([athletes] card_key, docs/security.md)")
            }
            return .success(own.key)
        } catch {
            faults.note("\(error); cards tapped here are refused until it is fixed")
            return .failure(error)
        }
    }
}
