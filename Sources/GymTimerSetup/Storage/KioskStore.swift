import GymTimerCore
import GymTimerRuntime
import GymTimerDrivers
import GymTimerSystem

/// What a controller keeps in its data directory so that nothing recorded is lost: the journal
/// (running state and the records not yet in the database, saved together) and the history
/// database. A record is in the database, or in the journal with the state that produced it,
/// or the state that will produce it again is: a crash or a full disk at any point loses none,
/// and replaying one is harmless (the history ignores an id it has).
public final class KioskStore<History: PendingHistory>: RunningStateStore {
    /// The journal's file name in the data directory.
    public static var journalName: String { "state.journal" }
    /// How often records waiting for the database are retried.
    public var retryInterval: Duration { .seconds(10) }

    public let history: History
    private let journal: KioskJournal<StoredKiosk<History.Pending>>
    private let faults: FaultLog
    private var lastSaved: StoredKiosk<History.Pending>? {
        didSet {
            // Kept apart too, for `save`'s check on every wake-up: reading them out of the
            // generic snapshot copied all of it each time.
            savedPending = lastSaved?.pending ?? []
            savedHeld = lastSaved?.held ?? [:]
            savedEnded = lastSaved?.ended ?? false
            savedRunOrigin = lastSaved?.runOrigin ?? .origin
            savedHeldGeneration = lastSaved == nil ? -1 : heldGeneration
        }
    }
    private var lastKiosk: Kiosk?
    /// Whether `lastKiosk` is the kiosk the last `save` call was given.
    private var lastKioskIsLastCalls = false
    /// `lastSaved`'s fields `save` compares, and `heldGeneration` when it was saved (-1: nothing saved).
    private var savedPending: [History.Pending] = []
    private var savedHeld: [String: HeldPress] = [:]
    private var savedEnded = false
    private var savedRunOrigin = Moment.origin
    private var savedHeldGeneration = -1
    /// Saved with every snapshot (see `StoredKiosk.runOrigin`).
    public var runOrigin = Moment.origin
    /// Reads the clocks for each save and for the restore (see `ClockTrust`); nil on a virtual
    /// timeline (the scripted simulator), where stored moments are taken as they are.
    public var clock: (() -> ClockReading)?

    /// `slotSize`: the journal's bytes per save (see `KioskJournal`); smaller only in tests.
    /// `memory`: the journal is kept there instead of in `directory` (the scripted simulator's
    /// simulated medium, shared by the controllers of one run).
    public init(directory: String, history: History, faults: FaultLog, slotSize: Int = 1 << 20, memory: JournalMemory? = nil) {
        self.history = history
        self.faults = faults
        journal = KioskJournal(path: directory + "/" + Self.journalName, slotSize: slotSize, memory: memory)
        journal.log = { [faults] in faults.note($0) }
    }

    public var journalPath: String { journal.path }

    /// What an earlier process stored, its waiting records handed back to the history; nil
    /// when nothing is stored or it cannot be trusted (then the journal is moved aside, logged).
    public func load() -> StoredKiosk<History.Pending>? {
        let stored: StoredKiosk<History.Pending>?
        do {
            stored = try journal.load()
        } catch {
            faults.note("\(error)")
            return nil
        }
        guard let stored else { return nil }
        history.restore(stored.pending)
        if stored.unreadablePending > 0 {
            // Kept in a copy for the release that can read them; this one's saves overwrite the journal.
            faults.note("state: \(stored.unreadablePending) waiting workout(s) in format \(stored.format) cannot be read by this release; \(journal.keepCopy()), \(stored.pending.count) kept")
        }
        if stored.progressUnreadable {
            faults.note("state: the stored running state (format \(stored.format)) is unreadable (another version's, or damaged); starting fresh, \(stored.pending.count) waiting workout(s) kept")
        }
        guard stored.isPlausible else {
            faults.note("\(journal.setAside("its save time or a held press is out of range"))")
            return nil
        }
        return stored
    }

    /// The kiosk to run under `settings` from `stored`, at `now` on the new timeline: moved
    /// onto it as far as the clock can be trusted (`ClockTrust`, when `clock` is set), records
    /// what the config change ended, logs what the owner should know, and sets an
    /// untrustworthy journal aside.
    public func restore(_ stored: StoredKiosk<History.Pending>?, settings: KioskSettings, at now: Moment? = nil) -> Kiosk {
        var progress = stored?.progress
        var held: HeldForClock?
        if let stored, let clock, let now, progress != nil {
            let reading = clock()
            // A save an earlier restore held, the kiosk unchanged since: resumed if the clock
            // can be trusted now, else still waited for.
            if let earlier = stored.heldForClock, earlier.shown == stored.progress {
                let trust = ClockTrust.decide(saved: earlier.clock, savedAt: earlier.savedAt, current: reading, now: now)
                if case .wallClock = trust {
                    restoredTrust = trust
                    heldForClock = nil
                    return resumed(earlier, shift: trust.shift, settings: settings)
                }
                held = earlier
            }
            let trust = ClockTrust.decide(saved: stored.clock, savedAt: stored.savedAt, current: reading, now: now)
            if let note = trust.note { faults.note("state: \(note)") }
            if case .unknown = trust {
                if held == nil, progress?.idleCarriedOver == nil {
                    if ClockTrust.mayResumeOnSync(saved: stored.clock) {
                        held = HeldForClock(progress: progress, savedAt: stored.savedAt, clock: stored.clock)
                    } else {
                        faults.note("state: clock: the save itself was made on an unsynchronised clock, so no synchronisation can place it: start resumes the run as it is")
                    }
                }
                progress = progress?.holdingRun(at: stored.savedAt)
            }
            progress = progress?.shifted(by: trust.shift)
            restoredTrust = trust
        }
        let savedAt = (stored?.savedAt ?? .origin).saturatingAdvanced(by: restoredTrust?.shift ?? .zero)
        let kiosk = rebuild(progress, savedAt: savedAt, settings: settings)
        held?.shown = KioskProgress(kiosk)
        heldForClock = held
        heldSettings = settings
        return kiosk
    }

    /// The kiosk `held` makes once the clock is trusted, its moments moved by `shift` onto the
    /// loop's timeline; says so in the log.
    private func resumed(_ held: HeldForClock, shift: Duration, settings: KioskSettings) -> Kiosk {
        let kiosk = rebuild(held.progress?.shifted(by: shift), savedAt: held.savedAt.saturatingAdvanced(by: shift), settings: settings)
        let what = held.progress.map { $0.mode.kind == .interval ? "interval workout" : $0.mode.kind.rawValue } ?? "kiosk"
        faults.note("state: clock synchronised: \(what) resumed where the clock says")
        return kiosk
    }

    /// `KioskRestore` of `progress`: records what the config change ended, logs what the owner
    /// should know, and sets an untrustworthy journal aside.
    private func rebuild(_ progress: KioskProgress?, savedAt: Moment, settings: KioskSettings) -> Kiosk {
        let restore = KioskRestore(progress: progress, savedAt: savedAt, settings: settings)
        for note in restore.notes { faults.note("state: \(note)") }
        for record in restore.records { history.record(record) }
        if restore.implausible { faults.note("\(journal.setAside("the kiosk state is out of range"))") }
        return restore.kiosk
    }

    /// How the last restore trusted the clock (nil: no clock, or nothing restored).
    public private(set) var restoredTrust: ClockTrust?

    /// The wall clock, read when a held run may resume (injected in tests).
    public var wallClock: WallClock = .system

    /// What a restore on a clock it could not trust held, kept until the clock synchronises
    /// (and saved with the journal, for a restart before then), and the settings it ran under.
    private var heldForClock: HeldForClock? {
        didSet {
            awaitsClock = heldForClock != nil
            heldGeneration += 1
        }
    }
    /// Counts the changes of `heldForClock`: the same count since a save, the same value.
    private var heldGeneration = 0
    private var heldSettings = KioskSettings()

    /// Whether a run is held until the clock synchronises (see `resumeOnSync`).
    public private(set) var awaitsClock = false

    /// Once the clock can be trusted (`ClockTrust.decide` says `.wallClock` for the save the
    /// restore held), the kiosk the restart would have made on a synchronised clock, moved onto
    /// the loop's timeline (`now`, which differs from the wall clock by how far the clock was
    /// off when this process started): the run where the clock says it is, or its alarm or
    /// record if it ended meanwhile. Nil while the clock is still not trusted, and for good
    /// once the held kiosk (`current`) moved on (a press, a warning beep, its own end), which
    /// is then left as it is: the lifter has seen it go on.
    public func resumeOnSync(_ current: Kiosk, at now: Moment) -> Kiosk? {
        guard let held = heldForClock, let clock else { return nil }
        guard KioskProgress(current) == held.shown else {
            heldForClock = nil
            faults.note("state: clock: the held run moved on (a press, a beep, its end) before the clock synchronised; left as it is")
            return nil
        }
        let wallNow = Moment(wallClock.sinceEpoch)
        let trust = ClockTrust.decide(saved: held.clock, savedAt: held.savedAt, current: clock(), now: wallNow)
        guard case .wallClock = trust else { return nil }
        heldForClock = nil
        return resumed(held, shift: trust.shift + (now - wallNow), settings: heldSettings)
    }

    /// Saves the running state with the records still waiting, if anything changed since the
    /// last save; a failure is logged once and the save retried on the next call.
    public func save(kiosk: Kiosk, held: [String: HeldPress], at now: Moment, ended: Bool = false) {
        save(kiosk: kiosk, unchangedSinceLastCall: false, held: held, at: now, ended: ended)
    }

    /// `save`; with `unchangedSinceLastCall`, `kiosk` is the previous call's, so when that one
    /// left it as `lastKiosk` it is not compared again.
    public func save(kiosk: Kiosk, unchangedSinceLastCall: Bool, held: [String: HeldPress], at now: Moment, ended: Bool = false) {
        let pending = history.pending
        // The same kiosk has the same progress: compared first, so a wake-up that changed
        // nothing costs no conversion.
        if savedHeldGeneration == heldGeneration, (unchangedSinceLastCall && lastKioskIsLastCalls) || kiosk == lastKiosk,
           pending == savedPending, held == savedHeld, ended == savedEnded, runOrigin == savedRunOrigin {
            lastKioskIsLastCalls = true
            return
        }
        lastKioskIsLastCalls = false
        let snapshot = StoredKiosk(
            kiosk: kiosk, savedAt: now, pending: pending, held: held, ended: ended, runOrigin: runOrigin, clock: clock?(),
            heldForClock: heldForClock)
        var unchanged = lastSaved
        unchanged?.savedAt = now
        unchanged?.clock = snapshot.clock
        guard snapshot != unchanged else {
            lastKiosk = kiosk
            lastKioskIsLastCalls = true
            savedHeldGeneration = heldGeneration
            return
        }
        do {
            try journal.save(snapshot)
            lastSaved = snapshot
            faults.succeeded("state journal")
        } catch {
            guard case .tooLarge = error else { return faults.failed("state journal", error) }
            saveTrimmed(snapshot, error)
        }
        // Only a saved kiosk may skip the next save; a failed one is tried again.
        if lastSaved == snapshot {
            lastKiosk = kiosk
            lastKioskIsLastCalls = true
        }
    }

    /// Saves the state as it is now over the whole journal, both slots (`KioskJournal.saveOverwritingEverything`):
    /// after a forget, no earlier save keeps the card. A failure is logged as any save's.
    public func saveOverwritingEverything(kiosk: Kiosk, held: [String: HeldPress], at now: Moment) {
        let snapshot = StoredKiosk(
            kiosk: kiosk, savedAt: now, pending: history.pending, held: held, ended: false, runOrigin: runOrigin,
            clock: clock?(), heldForClock: heldForClock)
        do {
            try journal.saveOverwritingEverything(snapshot)
            lastSaved = snapshot
            lastKiosk = kiosk
            lastKioskIsLastCalls = false
            faults.succeeded("state journal")
        } catch {
            faults.failed("state journal", error)
        }
    }

    /// Saves the state with as many of the oldest waiting records as fit, when all of them do
    /// not (thousands, after a long full disk): the state goes on being saved, and the newest
    /// records wait in memory only until the database drains them; logged once. When not even
    /// the state alone fits, says how large it is.
    private func saveTrimmed(_ snapshot: StoredKiosk<History.Pending>, _ tooLarge: KioskJournalError) {
        var trimmed = snapshot
        var failure = tooLarge
        while !trimmed.pending.isEmpty {
            trimmed.pending.removeLast(max(1, trimmed.pending.count / 8))
            do {
                try journal.save(trimmed)
                lastSaved = snapshot
                faults.failed("state journal", KioskJournalError.unwritable(
                    path: journal.path, reason: "full: \(snapshot.pending.count - trimmed.pending.count) newest waiting workouts kept in memory only"))
                return
            } catch {
                failure = error
            }
        }
        faults.failed("state journal", failure)
    }

    /// Whether records are waiting for the database.
    public var hasPending: Bool { history.hasPending }

    /// Tries to write the waiting records again.
    public func retry() { history.retryPending() }
}
