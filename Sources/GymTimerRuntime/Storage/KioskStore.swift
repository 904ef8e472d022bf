import GymTimerCore
import GymTimerDrivers
import GymTimerHistory

/// What a controller keeps in its data directory so that nothing recorded is lost: the journal
/// (running state and the records not yet in the database, saved together) and the history
/// database. A record is in the database, or in the journal with the state that produced it,
/// or the state that will produce it again is: a crash or a full disk at any point loses none,
/// and replaying one is harmless (the history ignores an id it has).
public final class KioskStore {
    /// The journal's file name in the data directory.
    public static let journalName = "state.journal"
    /// How often records waiting for the database are retried.
    public static let retryInterval: Duration = .seconds(10)

    public let history: HistoryStore
    private let journal: KioskJournal<StoredKiosk>
    private let faults: FaultLog
    private var lastSaved: StoredKiosk?
    /// Saved with every snapshot (see `StoredKiosk.runOrigin`).
    public var runOrigin = Moment.origin

    /// `slotSize`: the journal's bytes per save (see `KioskJournal`); smaller only in tests.
    public init(directory: String, history: HistoryStore, faults: FaultLog, slotSize: Int = 1 << 20) {
        self.history = history
        self.faults = faults
        journal = KioskJournal(path: directory + "/" + Self.journalName, slotSize: slotSize)
    }

    public var journalPath: String { journal.path }

    /// What an earlier process stored, its waiting records handed back to the history; nil
    /// when nothing is stored or it cannot be trusted (then the journal is moved aside, logged).
    public func load() -> StoredKiosk? {
        let stored: StoredKiosk?
        do {
            stored = try journal.load()
        } catch {
            faults.note("\(error)")
            return nil
        }
        guard let stored else { return nil }
        history.restore(stored.pending)
        if stored.kiosk == nil {
            faults.note("state: the stored running state is unreadable (another version's, or damaged); starting fresh, \(stored.pending.count) waiting workout(s) kept")
        }
        guard stored.isPlausible else {
            faults.note("\(journal.setAside("its save time or a held press is out of range"))")
            return nil
        }
        return stored
    }

    /// The kiosk to run under `settings` from `stored`: records what the config change ended,
    /// logs what the owner should know, and sets an untrustworthy journal aside.
    public func restore(_ stored: StoredKiosk?, settings: KioskSettings) -> Kiosk {
        let restore = KioskRestore(stored?.kiosk, savedAt: stored?.savedAt ?? .origin, settings: settings)
        for note in restore.notes { faults.note("state: \(note)") }
        for record in restore.records { history.record(record) }
        if restore.implausible { faults.note("\(journal.setAside("the kiosk state is out of range"))") }
        return restore.kiosk
    }

    /// Saves the running state with the records still waiting, if anything changed since the
    /// last save; a failure is logged once and the save retried on the next call.
    public func save(kiosk: Kiosk, held: [String: HeldPress], at now: Moment, ended: Bool = false) {
        let snapshot = StoredKiosk(kiosk: kiosk, savedAt: now, pending: history.pending, held: held, ended: ended, runOrigin: runOrigin)
        guard snapshot != lastSaved else { return }
        do {
            try journal.save(snapshot)
            lastSaved = snapshot
            faults.succeeded("state journal")
        } catch .tooLarge {
            saveTrimmed(snapshot)
        } catch {
            faults.failed("state journal", error)
        }
    }

    /// Saves the state with as many of the oldest waiting records as fit, when all of them do
    /// not (thousands, after a long full disk): the state goes on being saved, and the newest
    /// records wait in memory only until the database drains them; logged once.
    private func saveTrimmed(_ snapshot: StoredKiosk) {
        var trimmed = snapshot
        while !trimmed.pending.isEmpty {
            trimmed.pending.removeLast(max(1, trimmed.pending.count / 8))
            if (try? journal.save(trimmed)) != nil {
                lastSaved = snapshot
                faults.failed("state journal", KioskJournalError.unwritable(
                    path: journal.path, reason: "full: \(snapshot.pending.count - trimmed.pending.count) newest waiting workouts kept in memory only"))
                return
            }
        }
        faults.failed("state journal", KioskJournalError.tooLarge(path: journal.path, bytes: 0, capacity: journal.slotSize))
    }

    /// Whether records are waiting for the database.
    public var hasPending: Bool { !history.pending.isEmpty }

    /// Tries to write the waiting records again.
    public func retry() { history.retryPending() }
}
