import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerHistory
import GymTimerRuntime
import GymTimerSetup
import Testing
import GymTimerSystem

/// The journal across releases (issue #24): journals an earlier release wrote (the fixtures,
/// made by that release) resume; what a later release may add is tolerated; what cannot be
/// read drops only itself, never a record waiting for the database; and the running state is
/// progress, so any config fits.
@Suite struct JournalFormatTests {
    static let fixtures = GymtimerBinary.root.appendingPathComponent("Tests/GymTimerSimulationTests/Fixtures/journal-format-1").path

    /// A store on a copy of fixture `name`'s journal (the restore may set a journal aside), and its config.
    func fixture(_ name: String, in files: ScratchDirectory) throws -> (KioskStore<HistoryStore>, KioskSettings) {
        let data = files.path + "/" + name
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Self.fixtures + "/\(name)/state.journal", toPath: data + "/" + KioskStore<HistoryStore>.journalName)
        let settings = try GymTimerConfiguration.load(path: Self.fixtures + "/\(name)/config.toml").kiosk
        let history = HistoryStore.opening(path: data + "/history.sqlite", faults: FaultLog { _ in })
        return (KioskStore(directory: data, history: history, faults: FaultLog { _ in }), settings)
    }

    /// Restores, then saves in this release's format and restores that again: both the same kiosk.
    func resume(_ store: KioskStore<HistoryStore>, _ settings: KioskSettings) throws -> (StoredKiosk<StoredWorkout>, Kiosk) {
        let stored = try #require(store.load(), "the old journal is read")
        #expect(stored.format == 1 && !stored.progressUnreadable)
        let kiosk = store.restore(stored, settings: settings)
        store.save(kiosk: kiosk, held: [:], at: stored.savedAt)
        let reread = try KioskJournal<StoredKiosk<StoredWorkout>>(path: store.journalPath).load()
        let again = try #require(reread)
        #expect(again.format == StoredKiosk<StoredWorkout>.currentFormat)
        #expect(KioskRestore(progress: again.progress, savedAt: again.savedAt, settings: settings).kiosk == kiosk)
        return (stored, kiosk)
    }

    @Test func aRestStoredByTheEarlierReleaseResumes() throws {
        let files = try ScratchDirectory()
        let (store, settings) = try fixture("mid-rest", in: files)
        let (stored, kiosk) = try resume(store, settings)
        guard case .rest(let rest) = kiosk.mode, case .resting(let countdown, _) = rest.phase else {
            Issue.record("not resting: \(kiosk.mode)")
            return
        }
        #expect(rest.sets == 1)
        #expect(countdown.displayedSeconds(at: stored.savedAt) == 15, "14.9 s left at the save")
    }

    @Test func aProgramStoredByTheEarlierReleaseResumes() throws {
        let files = try ScratchDirectory()
        let (store, settings) = try fixture("mid-program", in: files)
        let (stored, kiosk) = try resume(store, settings)
        guard case .program(let program) = kiosk.mode, let run = program.run, case .running(let segments) = run.phase else {
            Issue.record("no program running: \(kiosk.mode)")
            return
        }
        #expect(program.program.name == "Ten-minute AMRAP")
        #expect(run.rounds == 2)
        #expect(segments.displayedSeconds(at: stored.savedAt) == 9 * 60 + 55)
    }

    @Test func recordsWaitingInTheEarlierReleasesJournalAreKeptAndTheRunResumes() throws {
        let files = try ScratchDirectory()
        let (store, settings) = try fixture("pending", in: files)
        let (stored, kiosk) = try resume(store, settings)
        let id = "interval@1795542670254470534"
        #expect(stored.pending.map(\.id) == [id])
        let written = try HistoryStore.reading(path: files.path + "/pending/history.sqlite").workouts().map(\.id)
        #expect(store.history.pending.map(\.id) + written == [id], "handed to the history, which writes it")
        guard case .interval(let interval) = kiosk.mode, interval.run != nil else {
            Issue.record("no interval workout running: \(kiosk.mode)")
            return
        }
    }

    /// A journal of a later release: fields this one does not know are ignored, fields it
    /// left out read as absent, and a running state or a record it cannot read drops only
    /// itself (the record kept in a copy of the journal).
    @Test func aLaterReleasesJournalIsReadAsFarAsItCanBe() throws {
        let files = try ScratchDirectory()
        let path = files.path + "/" + KioskStore<HistoryStore>.journalName
        let record = #"{"calories":0,"completed_at":817235442.7,"duration_ms":10000,"exercises":[],"id":"rest@1","kind":"rest","local_day":"2026-11-24","sets":2}"#
        let json = """
            {"format":3,"savedAt":{"nanoseconds":5000000000},"addedLater":{"x":1},
             "progress":{"mode":{"kind":"rest","seconds":60,"restDeadline":{"nanoseconds":40000000000},"newField":7}},
             "pending":[\(record),{"kind":"a record of the future"}]}
            """
        let journal = KioskJournal<RawJSON>(path: path)
        try journal.save(RawJSON(text: json))
        var lines: [String] = []
        let history = HistoryStore.opening(path: files.path + "/history.sqlite", faults: FaultLog { _ in })
        let store = KioskStore(directory: files.path, history: history, faults: FaultLog { lines.append($0) })
        let stored = try #require(store.load())
        #expect(stored.format == 3 && stored.pending.map(\.id) == ["rest@1"] && stored.unreadablePending == 1)
        #expect(lines.contains { $0.contains("1 waiting workout(s) in format 3 cannot be read") && $0.contains("kept as") }, "\(lines)")
        let copies = try FileManager.default.contentsOfDirectory(atPath: files.path).filter { $0.contains(".corrupt-") }
        #expect(copies.count == 1, "the journal is copied before this release overwrites it")
        let kiosk = store.restore(stored, settings: KioskSettings())
        guard case .rest(let rest) = kiosk.mode, case .resting(let countdown, _) = rest.phase else {
            Issue.record("not resting: \(kiosk.mode)")
            return
        }
        #expect(countdown.deadline == Moment(.seconds(40)) && rest.durationSeconds == 60)
    }

    /// A running state this release cannot decode at all (a changed shape) keeps the records beside it.
    @Test func anUnreadableRunningStateOfEitherFormatKeepsTheRecords() throws {
        for (format, key) in [("", "kiosk"), (#""format":2,"#, "progress")] {
            let files = try ScratchDirectory()
            let path = files.path + "/" + KioskStore<HistoryStore>.journalName
            let record = #"{"calories":0,"completed_at":817235442.7,"duration_ms":10000,"exercises":[],"id":"rest@1","kind":"rest","local_day":"2026-11-24","sets":2}"#
            try KioskJournal<RawJSON>(path: path).save(RawJSON(text: #"{\#(format)"savedAt":{"nanoseconds":5},"\#(key)":{"mode":"new"},"pending":[\#(record)]}"#))
            let history = HistoryStore.opening(path: files.path + "/history.sqlite", faults: FaultLog { _ in })
            let store = KioskStore(directory: files.path, history: history, faults: FaultLog { _ in })
            let stored = try #require(store.load())
            #expect(stored.progress == nil && stored.progressUnreadable && stored.pending.map(\.id) == ["rest@1"], "\(key)")
        }
    }

    /// Configs `check-config` accepts, however large, save and restore a run in progress:
    /// the journal holds which plan and how far, not the plans.
    @Test(arguments: ["programs", "presets", "name"])
    func aRunUnderAnyAcceptedConfigIsSavedAndResumed(config: String) throws {
        var settings = KioskSettings()
        let longName = String(repeating: "n", count: 600_000)
        switch config {
        case "programs":
            settings.programs = ProgramSettings(programs: (0..<6000).map {
                Program(name: "AMRAP \($0)", label: "A\($0 % 1000)", leadInSeconds: 3, format: .amrap(timeSeconds: 600))
            })
            settings.startMode = .program
        case "presets":
            settings.workout = WorkoutSettings(presets: (0..<999).map { index in
                WorkoutPreset(name: "preset \(index)", exerciseSeconds: 30, restSeconds: 15, calories: 100,
                              exercises: (0..<20).map { "exercise \(index)-\($0) " + String(repeating: "x", count: 40) })
            }, presetName: "preset 998")
            settings.startMode = .workout
        default:
            settings.programs = ProgramSettings(programs: [Program(name: longName, label: "LONG", leadInSeconds: 3, format: .amrap(timeSeconds: 600))])
            settings.startMode = .program
        }
        let files = try ScratchDirectory()
        var lines: [String] = []
        let history = HistoryStore.opening(path: files.path + "/history.sqlite", faults: FaultLog { _ in })
        let store = KioskStore(directory: files.path, history: history, faults: FaultLog { lines.append($0) })
        var kiosk = Kiosk(settings: settings)
        let started = Moment(.seconds(1_795_000_000))
        _ = kiosk.handle(.pressed(.start), at: started)
        _ = kiosk.handle(.released(.start), at: started + .milliseconds(200))
        _ = kiosk.handle(.pressed(.start), at: started + .seconds(10))
        store.save(kiosk: kiosk, held: [:], at: started + .seconds(11))
        #expect(lines.isEmpty, "saved: \(lines)")

        let later = KioskStore(
            directory: files.path, history: HistoryStore.opening(path: files.path + "/history.sqlite", faults: FaultLog { _ in }),
            faults: FaultLog { _ in })
        let stored = try #require(later.load())
        let restored = later.restore(stored, settings: settings)
        #expect(restored == kiosk)
        #expect(!restored.isIdle, "the run goes on")
    }

    /// A state too large for a slot even without waiting records says how large it is.
    @Test func aStateTooLargeForItsSlotSaysItsSize() throws {
        let files = try ScratchDirectory()
        var lines: [String] = []
        let history = HistoryStore.opening(path: files.path + "/history.sqlite", faults: FaultLog { _ in })
        let store = KioskStore(directory: files.path, history: history, faults: FaultLog { lines.append($0) }, slotSize: 64)
        store.save(kiosk: Kiosk(settings: KioskSettings()), held: [:], at: Moment(.seconds(5)))
        #expect(lines.count == 1 && lines[0].contains("do not fit in its 40") && !lines[0].contains(" 0 bytes"), "\(lines)")
    }
}

/// JSON written as it is, as a later release (or a damaged file) might have it.
struct RawJSON: Codable {
    var text: String
    init(text: String) { self.text = text }
    init(from decoder: any Decoder) throws { text = "" }
    func encode(to encoder: any Encoder) throws {
        // The journal encodes with JSONEncoder: a fragment decoded back is encoded as is.
        let value = try JSONDecoder().decode(AnyJSON.self, from: Data(text.utf8))
        try value.encode(to: encoder)
    }
}

/// Any JSON value, to write hand-made JSON through a `KioskJournal`.
enum AnyJSON: Codable {
    case object([String: AnyJSON]), array([AnyJSON]), string(String), number(Double), integer(Int64), bool(Bool), null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([AnyJSON].self) { self = .array(value) }
        else { self = .object(try container.decode([String: AnyJSON].self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .object(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
