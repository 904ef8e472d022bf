import Foundation
import GymTimerCore
import GymTimerHistory
import GymTimerRuntime
import GymTimerSetup
import GymTimerSimulator
import GymTimerSimulation
import Testing
import GymTimerSystem

/// The journal with the records waiting for a database that cannot be opened (a directory in
/// its place), on real files.
@Suite struct KioskStoreTests {
    func waiting(_ count: Int, in directory: String, log: @escaping (String) -> Void) -> HistoryStore {
        try? FileManager.default.createDirectory(atPath: directory + "/history.sqlite", withIntermediateDirectories: true)
        let history = HistoryStore.opening(path: directory + "/history.sqlite", faults: FaultLog(sink: log))
        for k in 0..<count {
            history.record(WorkoutRecord(kind: .rest, sets: 2, duration: .seconds(60), endedAt: Moment(.seconds(100 * k + 60))))
        }
        return history
    }

    @Test func waitingRecordsAndTheStateAreSavedTogetherAndComeBack() throws {
        let files = try ScratchDirectory()
        let history = waiting(3, in: files.path) { _ in }
        let store = KioskStore(directory: files.path, history: history, faults: FaultLog { _ in })
        store.save(kiosk: Kiosk(settings: KioskSettings()), held: [:], at: Moment(.seconds(400)))

        let later = KioskStore(directory: files.path, history: waiting(0, in: files.path) { _ in }, faults: FaultLog { _ in })
        let stored = try #require(later.load())
        #expect(stored.pending.map(\.id) == history.pending.map(\.id))
        #expect(later.history.pending.count == 3, "handed back to the history")
    }

    /// More waiting records than a slot holds: the state is still saved, with the oldest
    /// records that fit, and the log says how many wait in memory only.
    @Test func aFullJournalStillSavesTheStateWithTheOldestRecords() throws {
        let files = try ScratchDirectory()
        var lines: [String] = []
        let history = waiting(60, in: files.path) { _ in }
        let store = KioskStore(directory: files.path, history: history, faults: FaultLog { lines.append($0) }, slotSize: 8192)
        store.save(kiosk: Kiosk(settings: KioskSettings()), held: [:], at: Moment(.seconds(7000)))
        #expect(lines.count == 1 && lines[0].contains("kept in memory only"), "\(lines)")

        let later = KioskStore(directory: files.path, history: waiting(0, in: files.path) { _ in }, faults: FaultLog { _ in }, slotSize: 8192)
        let stored = try #require(later.load())
        #expect(stored.pending.count > 10 && stored.pending.count < 60)
        #expect(stored.pending.map(\.id) == Array(history.pending.prefix(stored.pending.count)).map(\.id), "the oldest ones")
    }

    /// A journal whose kiosk another version wrote (a shape this one cannot read): the kiosk
    /// starts fresh, and the workouts waiting beside it are kept.
    @Test func anUnreadableKioskKeepsItsWaitingRecords() throws {
        struct OtherVersion: Codable {
            var kiosk = ["mode": "something new"]
            var savedAt = Moment(.seconds(5))
            var pending: [StoredWorkout]
        }
        let files = try ScratchDirectory()
        let history = waiting(2, in: files.path) { _ in }
        try KioskJournal<OtherVersion>(path: files.path + "/" + KioskStore<HistoryStore>.journalName).save(OtherVersion(pending: history.pending))
        var lines: [String] = []
        let later = KioskStore(directory: files.path, history: waiting(0, in: files.path) { _ in }, faults: FaultLog { lines.append($0) })
        let stored = try #require(later.load())
        #expect(stored.progress == nil && stored.progressUnreadable)
        #expect(later.history.pending.map(\.id) == history.pending.map(\.id))
        #expect(lines.contains { $0.contains("2 waiting workout(s) kept") }, "\(lines)")
        #expect(later.restore(stored, settings: KioskSettings()) == Kiosk(settings: KioskSettings()))
    }

    /// A database that becomes usable while the kiosk runs gets the waiting workouts within
    /// `KioskStore.retryInterval`, without a restart or another record.
    @Test func waitingRecordsAreRetriedInTheBackground() throws {
        let files = try ScratchDirectory()
        let data = files.path + "/data"
        try FileManager.default.createDirectory(atPath: data + "/history.sqlite", withIntermediateDirectories: true)
        var settings = KioskSettings()
        settings.startMode = .interval
        settings.interval.phaseSeconds = 5
        settings.interval.sets = 1
        // One 10 s workout, recorded at 11.01 while the database cannot be made; a press at
        // 40 frees its path (seen through the trace); then nothing happens but the retry.
        let script = try ScriptParser().parse("1 click start\n40 click dismiss\n80 end\n")
        var freed = false
        var recordsAt40: Int?
        var simulation: ScriptedSimulation?
        simulation = try ScriptedSimulation(
            script: script, settings: settings, dataDirectory: data,
            write: { line in
                guard !freed, line.hasPrefix("{\"t\":40.") else { return }
                freed = true
                recordsAt40 = simulation?.store.pending.count
                try? FileManager.default.removeItem(atPath: data + "/history.sqlite")
            })
        try simulation?.run()
        #expect(freed && recordsAt40 == 1, "the workout waited until the press at 40")
        #expect(simulation?.store.pending.isEmpty == true)
        #expect(try HistoryStore.reading(path: data + "/history.sqlite").workouts().count == 1, "written by the retry")
        simulation = nil
    }
}
