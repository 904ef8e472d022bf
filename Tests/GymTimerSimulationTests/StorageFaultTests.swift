import Foundation
import GymTimerCore
import GymTimerHistory
import GymTimerRuntime
import GymTimerSetup
import GymTimerTestSupport
import Testing
import GymTimerSystem

/// The README's promises about faults, each on real files with the real binary (issue #12):
/// a full disk, a corrupt, locked or uncreatable database, a hand-edited state, a planted
/// symlink and a second process lose no record and never stop the kiosk from starting.
@Suite struct StorageFaultTests {

    func simulate(_ script: String, config: String = GymtimerBinary.intervalConfig, dataDir: String, in files: ScratchDirectory)
        throws -> GymtimerBinary.Outcome
    {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        return try GymtimerBinary.simulate(script, config: config, dataDir: dataDir, in: files.path)
    }

    // MARK: 1. Full disk

    /// Workouts finished while the disk is full wait in the pre-allocated journal, survive the
    /// process ending, and reach the database once there is space again.
    @Test(.enabled(if: MachineRequirement.root.runs, "needs root to mount a small tmpfs"), MachineRequirement.root)
    func workoutsFinishedOnAFullDiskAreStoredOnceThereIsSpace() throws {
        let files = try ScratchDirectory()
        let mountPoint = files.path + "/disk"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        try #require(try Shell.run("/bin/mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mountPoint]) == 0, "mount a tmpfs")
        defer { _ = try? Shell.run("/bin/umount", [mountPoint]) }
        let data = mountPoint + "/data"
        // The kiosk has run before: its journal and database exist.
        #expect(try simulate("1 end\n", dataDir: data, in: files).status == 0)
        // Now the card is full.
        _ = try Shell.run("/bin/dd", ["if=/dev/zero", "of=\(mountPoint)/filler", "bs=4k"])
        let full = try simulate(GymtimerBinary.intervalScript(workouts: 3), dataDir: data, in: files)
        #expect(full.status == 0, "the timer keeps working: \(full.stderr)")
        #expect(full.stderr.contains("cannot save workouts"), "the fault is logged: \(full.stderr)")
        #expect(try GymtimerBinary.recordIDs(in: data).isEmpty, "nothing could reach the database")
        // Space again: the next start writes the three workouts that waited.
        try FileManager.default.removeItem(atPath: mountPoint + "/filler")
        let freed = try simulate("1 end\n", dataDir: data, in: files)
        #expect(freed.status == 0, "\(freed.stderr)")
        #expect(try GymtimerBinary.recordIDs(in: data).count == 3, "every workout finished on the full disk is kept")
    }

    // MARK: 2. Corrupt, locked, uncreatable database

    /// A truncated database is moved aside, logged loudly, and replaced; the kiosk starts.
    @Test func aCorruptDatabaseIsMovedAsideAndTheKioskStarts() throws {
        let files = try ScratchDirectory()
        let data = files.path + "/data"
        #expect(try simulate(GymtimerBinary.intervalScript(workouts: 1), dataDir: data, in: files).status == 0)
        let database = data + "/history.sqlite"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: database)[.size] as? Int)
        #expect(truncate(database, off_t(size / 3)) == 0)
        let run = try simulate(GymtimerBinary.intervalScript(workouts: 2), dataDir: data, in: files)
        #expect(run.status == 0, "the kiosk starts: \(run.stderr)")
        #expect(run.stderr.contains("HISTORY DATABASE CORRUPT"), "logged loudly: \(run.stderr)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: data).filter { $0.hasPrefix("history.sqlite.corrupt-") }
        #expect(aside.count == 1, "the damaged file is kept aside for recovery")
        #expect(try GymtimerBinary.recordIDs(in: data).count == 2, "the new database has this run's workouts")
    }

    /// A database another process holds locked: the workouts wait, and are written by the next
    /// start once the lock is gone.
    @Test func workoutsWaitForALockedDatabase() throws {
        let files = try ScratchDirectory()
        let data = files.path + "/data"
        #expect(try simulate("1 end\n", dataDir: data, in: files).status == 0)
        let locker = try DatabaseLocker(path: data + "/history.sqlite")
        let locked = try simulate(GymtimerBinary.intervalScript(workouts: 2), dataDir: data, in: files)
        #expect(locked.status == 0, "\(locked.stderr)")
        #expect(locked.stderr.contains("locked"), "\(locked.stderr)")
        locker.release()
        #expect(try simulate("1 end\n", dataDir: data, in: files).status == 0)
        #expect(try GymtimerBinary.recordIDs(in: data).count == 2)
    }

    /// A database that cannot be created (a directory in its place): the timer runs and the
    /// workouts wait until it can be.
    @Test func workoutsWaitForADatabaseThatCannotBeCreated() throws {
        let files = try ScratchDirectory()
        let data = files.path + "/data"
        try FileManager.default.createDirectory(atPath: data + "/history.sqlite", withIntermediateDirectories: true)
        let blocked = try simulate(GymtimerBinary.intervalScript(workouts: 2), dataDir: data, in: files)
        #expect(blocked.status == 0, "\(blocked.stderr)")
        #expect(blocked.stderr.contains("it is a directory"), "\(blocked.stderr)")
        try FileManager.default.removeItem(atPath: data + "/history.sqlite")
        #expect(try simulate("1 end\n", dataDir: data, in: files).status == 0)
        #expect(try GymtimerBinary.recordIDs(in: data).count == 2)
    }

    // MARK: 4. Absurd stored state

    /// A journal edited to hold numbers no kiosk makes (Int64 extremes in the save time, a
    /// deadline, the set count) is set aside and the kiosk starts fresh, never trapping.
    @Test(arguments: [
        ("\"restDeadline\":{\"nanoseconds\":", "9223372036854775807"),
        ("\"restDeadline\":{\"nanoseconds\":", "-9223372036854775808"),
        ("\"savedAt\":{\"nanoseconds\":", "9223372036854775807"),
        ("\"sets\":", "9223372036854775807"),
        ("\"workoutStartedAt\":{\"nanoseconds\":", "-9223372036854775808"),
    ])
    func absurdNumbersInTheStoredStateAreSetAsideNotTrusted(key: String, value: String) throws {
        let files = try ScratchDirectory()
        let data = files.path + "/data"
        // A rest under way, saved by a run that was then killed (`ended` edited to false).
        #expect(try simulate("1 click start\n5 end\n", config: "", dataDir: data, in: files).status == 0)
        try JournalEditor.edit(data) { json in
            var edited = json.replacingOccurrences(of: "\"ended\":true", with: "\"ended\":false")
            let pattern = try! NSRegularExpression(pattern: NSRegularExpression.escapedPattern(for: key) + "-?[0-9]+")
            edited = pattern.stringByReplacingMatches(
                in: edited, range: NSRange(edited.startIndex..., in: edited), withTemplate: NSRegularExpression.escapedTemplate(for: key + value))
            return edited
        }
        let run = try simulate("10 end\n", config: "", dataDir: data, in: files)
        #expect(run.status == 0, "no trap: \(run.stderr)")
        #expect(run.stderr.contains("out of range"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data).contains { $0.hasPrefix("state.journal.corrupt-") })
    }

    /// A journal that is garbage is moved aside and the kiosk starts.
    @Test func aGarbageJournalIsMovedAside() throws {
        let files = try ScratchDirectory()
        let data = files.path + "/data"
        #expect(try simulate("1 end\n", dataDir: data, in: files).status == 0)
        try Data("not a journal".utf8).write(to: URL(fileURLWithPath: data + "/state.journal"))
        let run = try simulate("1 end\n", dataDir: data, in: files)
        #expect(run.status == 0)
        #expect(run.stderr.contains("moved to"), "\(run.stderr)")
    }

    // MARK: 3. Config edits

    static let restConfig = "mode = \"rest\"\n[rest]\ndefault_seconds = 15\n"
    /// A rest workout with one set counted and the second rest running at t=20, left as a
    /// killed run leaves it.
    func restWorkoutInProgress(_ data: String, in files: ScratchDirectory) throws {
        #expect(try simulate("1 click start\n17 click dismiss\n18 click start\n20 end\n", config: Self.restConfig, dataDir: data, in: files).status == 0)
        try JournalEditor.edit(data) { $0.replacingOccurrences(of: "\"ended\":true", with: "\"ended\":false") }
    }

    /// An edit that leaves rest mode's settings alone keeps the rest workout going: its set
    /// counts, and the workout ended later has both sets.
    @Test func aConfigEditOutsideTheRunningModeKeepsTheWorkout() throws {
        let files = try ScratchDirectory()
        let data = files.path + "/data"
        try restWorkoutInProgress(data, in: files)
        let edited = Self.restConfig + "[interval]\nphase_seconds = 10\n"
        let run = try simulate("40 click dismiss\n41 hold dismiss 2.5\n50 end\n", config: edited, dataDir: data, in: files)
        #expect(run.status == 0, "\(run.stderr)")
        // The journal holds progress, not the config: an edit elsewhere is not seen, so not logged.
        #expect(!run.stderr.contains("config changed"), "logged: \(run.stderr)")
        let workouts = try HistoryStore.reading(path: data + "/history.sqlite").workouts()
        #expect(workouts.map(\.sets) == [2], "one workout with both sets")
    }

    /// An edit of the running mode's own settings records the sets already counted, and says so.
    @Test func aConfigEditOfTheRunningModeRecordsTheCountedSets() throws {
        let files = try ScratchDirectory()
        let data = files.path + "/data"
        try restWorkoutInProgress(data, in: files)
        let edited = "mode = \"rest\"\n[rest]\ndefault_seconds = 30\n"
        let run = try simulate("30 end\n", config: edited, dataDir: data, in: files)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("was recorded and ended"), "logged: \(run.stderr)")
        let workouts = try HistoryStore.reading(path: data + "/history.sqlite").workouts()
        #expect(workouts.map(\.sets) == [1], "the counted set is kept")
    }

    // MARK: 6. Planted symlink

    /// A symlink planted at the journal's name (or the old temporary name) is never followed:
    /// its target is untouched and the link is moved aside.
    @Test func aPlantedSymlinkIsNotFollowed() throws {
        let files = try ScratchDirectory()
        let data = files.path + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let victim = files.path + "/victim"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: data + "/state.journal", withDestinationPath: victim)
        try FileManager.default.createSymbolicLink(atPath: data + "/state.json.new", withDestinationPath: victim)
        let run = try simulate(GymtimerBinary.intervalScript(workouts: 1), dataDir: data, in: files)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(run.stderr.contains("symbolic link"), "\(run.stderr)")
        #expect(try GymtimerBinary.recordIDs(in: data).count == 1)
    }

    // MARK: 7. Two processes

    /// A second controller on a data directory another process holds is refused with one
    /// line naming the holder's PID, and touches nothing.
    @Test func aSecondProcessOnTheDataDirectoryIsRefused() throws {
        let files = try ScratchDirectory()
        let data = files.path + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        var holder: DataDirectoryLock? = try DataDirectoryLock(directory: data)
        let refused = try simulate(GymtimerBinary.intervalScript(workouts: 1), dataDir: data, in: files)
        #expect(refused.status == 2)
        #expect(refused.stdout.isEmpty)
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("in use by gymtimer process \(getpid())"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: data + "/history.sqlite"))
        #expect(holder != nil)
        holder = nil
        #expect(try simulate(GymtimerBinary.intervalScript(workouts: 1), dataDir: data, in: files).status == 0, "free again")
    }

    // MARK: 8. A data directory a clean run left

    /// A run on a data directory an earlier run ended cleanly starts at t=0 and runs its whole
    /// script (the same trace), adding its workouts to the history carried over.
    @Test func aRunAfterACleanEndStartsAtZeroWithTheHistoryCarried() throws {
        let files = try ScratchDirectory()
        let data = files.path + "/data"
        let script = GymtimerBinary.intervalScript(workouts: 3)
        let first = try simulate(script, dataDir: data, in: files)
        let second = try simulate(script, dataDir: data, in: files)
        #expect(first.status == 0 && second.status == 0)
        #expect(second.stdout == first.stdout, "the same script gives the same trace from t=0")
        #expect(second.stdout.hasPrefix("{\"t\":0.0,"))
        let ids = try GymtimerBinary.recordIDs(in: data)
        #expect(ids.count == 6 && Set(ids).count == 6, "both runs' workouts, each once")
    }
}

/// Runs a command and returns its exit status.
enum Shell {
    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Rewrites the JSON in a data directory's journal, as a hand edit would (keeping it valid).
enum JournalEditor {
    static func edit(_ dataDir: String, _ change: (String) throws -> String) throws {
        let journal = KioskJournal<StoredKiosk<StoredWorkout>>(path: dataDir + "/" + KioskStore<HistoryStore>.journalName)
        let stored = try #require(try journal.load())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(stored), as: UTF8.self)
        let edited = try change(json)
        #expect(edited != json, "the edit changed something")
        try journal.save(try JSONDecoder().decode(StoredKiosk<StoredWorkout>.self, from: Data(edited.utf8)))
    }
}
