import Foundation
import GymTimerCore
import GymTimerHistory
import GymTimerRuntime
import GymTimerSetup
import Testing
import GymTimerSystem

/// A real `gymtimer simulate` process, killed with SIGKILL at random points of its script and
/// started again on the same data directory, ends with exactly the history of a run that was
/// never interrupted: no record lost, none written twice.
@Suite struct KillRestartTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let binary = GymtimerBinary.path

    /// Interval workouts end (and are recorded) by themselves, so a kill at any moment has a
    /// record in flight somewhere.
    static let config = """
        mode = "interval"
        [interval]
        phase_seconds = 5
        sets = 2
        warning_seconds = 2
        announce_seconds = 2
        """

    static var script: String {
        var lines: [String] = []
        for k in 0..<12 { lines += ["\(1 + k * 30) click start", "\(25 + k * 30) click dismiss"] }
        lines.append("400 end")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Rest workouts (two sets, ended by a hold of dismiss) and interval workouts, switching
    /// between the modes through the menu (a hold of start, the knob, start) three times, so a
    /// kill can fall during any hold, any menu, any record.
    static let mixedConfig = """
        mode = "rest"
        [rest]
        default_seconds = 15
        [interval]
        phase_seconds = 5
        sets = 2
        """

    static var mixedScript: String {
        var lines: [String] = []
        for cycle in 0..<3 {
            let t = 1 + cycle * 80
            lines += [
                "\(t) click start", "\(t + 16) click dismiss", "\(t + 17) click start", "\(t + 33) click dismiss",
                "\(t + 35) hold dismiss 2.5",
                "\(t + 40) hold start 2.5", "\(t + 44) turn 1", "\(t + 45) click start",
                "\(t + 46) click start", "\(t + 68) click dismiss",
                "\(t + 70) hold start 2.5", "\(t + 74) turn -1", "\(t + 75) click start",
            ]
        }
        lines.append("250 end")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A fresh directory for a test's scripts and data directories (the caller removes it),
    /// once the binary is there to run.
    static func scratchDirectory(_ prefix: String) throws -> URL {
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build first: swift build")
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        return files
    }

    /// How one run of `simulate` ended.
    struct Run {
        /// Whether it ran to the end of its script (exit status 0).
        var finished: Bool
        /// How it ended and the end of what it wrote on stderr, for a failure message.
        var summary: String
    }

    /// Consecutive failed runs after which the binary is taken to be broken: the test fails
    /// with what it said rather than starting it again forever.
    static let maxConsecutiveFailures = 5

    /// The seed the kill points are drawn from: `GYMTIMER_KILL_SEED` replays a failing run,
    /// otherwise a fresh one. Printed either way, and named in every failure.
    static func seed(for test: String) -> UInt64 {
        let seed = ProcessInfo.processInfo.environment["GYMTIMER_KILL_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        print("\(test): seed \(seed) (GYMTIMER_KILL_SEED=\(seed) replays it)")
        return seed
    }

    /// Runs simulate on `dataDir`; with `killAfter`, SIGKILLs it once it has saved its running
    /// state that many more times (watched on disk, so the kill lands mid-run: its trace is
    /// buffered and only written at the end).
    func simulate(dataDir: String, files: URL, killAfter: Int?, script: String = "script.txt", config: String = "config.toml") throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = [
            "simulate", "--script", files.appendingPathComponent(script).path,
            "--config", files.appendingPathComponent(config).path, "--data-dir", dataDir,
        ]
        let errorPath = dataDir + ".stderr"
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        defer { try? errors.close() }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        var last = Self.saveSignature(dataDir)
        try process.run()
        if let killAfter {
            var saves = 0
            while saves < killAfter && process.isRunning {
                let now = Self.saveSignature(dataDir)
                if now != last {
                    // The journal's sequence counts every save, also those made while this
                    // watcher was not scheduled (a loaded machine): otherwise the kill would
                    // fall later than drawn, often after the run's end.
                    let journal = FileManager.default.fileExists(atPath: dataDir + "/" + KioskStore<HistoryStore>.journalName)
                    saves += journal && now > last ? Int(clamping: now - last) : 1
                    last = now
                }
                sched_yield()
            }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        let finished = process.terminationReason == .exit && process.terminationStatus == 0
        let said = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        let ending = process.terminationReason == .exit ? "exit status \(process.terminationStatus)" : "signal \(process.terminationStatus)"
        return Run(finished: finished, summary: "\(ending): \(said.split(separator: "\n").suffix(3).joined(separator: " | "))")
    }

    /// Runs the script on `dataDir` to its end (after kills), starting it again after a failed
    /// run; throws after `maxConsecutiveFailures` failures in a row, saying how the last ended.
    func finish(dataDir: String, files: URL, script: String = "script.txt", config: String = "config.toml") throws {
        var failures = 0
        while true {
            let run = try simulate(dataDir: dataDir, files: files, killAfter: nil, script: script, config: config)
            if run.finished { return }
            failures += 1
            if failures >= Self.maxConsecutiveFailures {
                throw KillRestartFailure(message: "gymtimer simulate failed \(failures) times in a row on \(dataDir); the last: \(run.summary)")
            }
        }
    }

    /// Kills a run of the script on `dataDir` at random save points (up to three times), then
    /// lets it finish (once: a run after a clean end would be a new run of the script); returns
    /// how many kills landed.
    func killThenFinish(
        dataDir: String, files: URL, saves: Int, using rng: inout SeededGenerator,
        script: String = "script.txt", config: String = "config.toml"
    ) throws -> Int {
        var kills = 0
        var finished = false
        while !finished && kills < 3 {
            finished = try simulate(
                dataDir: dataDir, files: files, killAfter: Int.random(in: 1...saves, using: &rng), script: script, config: config).finished
            if !finished { kills += 1 }
            finished = finished || endedCleanly(dataDir)
        }
        if !finished { try finish(dataDir: dataDir, files: files, script: script, config: config) }
        return kills
    }

    /// What changes with every save of the running state: the journal's newest sequence number
    /// (or, for a build from before the journal, `state.json`'s inode, new with each rename).
    static func saveSignature(_ dataDir: String) -> UInt64 {
        let slotSize = KioskJournal<StoredKiosk<StoredWorkout>>(path: "").slotSize
        let fd = open(dataDir + "/" + KioskStore<HistoryStore>.journalName, O_RDONLY)
        if fd >= 0 {
            defer { close(fd) }
            var newest: UInt64 = 0
            for slot in 0..<2 {
                var sequence: UInt64 = 0
                if pread(fd, &sequence, 8, off_t(slot * slotSize + 8)) == 8 { newest = max(newest, UInt64(littleEndian: sequence)) }
            }
            return newest
        }
        var info = stat()
        return stat(dataDir + "/state.json", &info) == 0 ? UInt64(info.st_ino) : 0
    }

    /// How many times a clean run of a script saved its state (its journal's last sequence),
    /// the range the kills are drawn from.
    static func saves(ofCleanRun dataDir: String) -> Int {
        let saves = Int(saveSignature(dataDir))
        return FileManager.default.fileExists(atPath: dataDir + "/" + KioskStore<HistoryStore>.journalName) && saves > 1 ? saves : 100
    }

    /// Whether the run on `dataDir` got to its end before the kill landed: then it is over, and
    /// another run would be a new run of the script.
    func endedCleanly(_ dataDir: String) -> Bool {
        let journal = KioskJournal<StoredKiosk<StoredWorkout>>(path: dataDir + "/" + KioskStore<HistoryStore>.journalName)
        return (try? journal.load())??.ended ?? false
    }

    func records(in dataDir: String) throws -> [String] {
        let store = try HistoryStore.reading(path: dataDir + "/history.sqlite", faults: FaultLog { _ in })
        return try store.workouts(since: nil).map { "\($0.id) \($0.kind) sets=\($0.sets) \($0.durationMilliseconds)ms at \($0.completedAt)" }
    }

    @Test func killedAtRandomPointsAndRestartedNeverLosesOrDuplicatesARecord() throws {
        let files = try Self.scratchDirectory("gymtimer-kill-")
        defer { try? FileManager.default.removeItem(at: files) }
        try Self.script.write(to: files.appendingPathComponent("script.txt"), atomically: true, encoding: .utf8)
        try Self.config.write(to: files.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)

        let clean = files.appendingPathComponent("clean").path
        try finish(dataDir: clean, files: files)
        let expected = try records(in: clean)
        let saves = Self.saves(ofCleanRun: clean)
        #expect(expected.count == 12, "every workout of the script is recorded once")

        let seed = Self.seed(for: "killedAtRandomPoints")
        var rng = SeededGenerator(seed: seed)
        for round in 0..<4 {
            let dir = files.appendingPathComponent("killed-\(round)").path
            let kills = try killThenFinish(dataDir: dir, files: files, saves: saves, using: &rng)
            #expect(try records(in: dir) == expected, "seed \(seed), round \(round) after \(kills) kills")
        }
    }

    /// Three athletes take turns at one rack: each taps in, does rests, and leaves by tapping
    /// out, by another's tap, or by a hold of dismiss; some sets are a guest's.
    static let athletesConfig = """
        mode = "rest"
        [rest]
        default_seconds = 15
        """

    static var athletesScript: String {
        let (anna, ben, cleo) = ("04A1B2C3", "0422334455667788", "08ABCDEF")
        var lines: [String] = []
        for cycle in 0..<2 {
            let t = 1 + cycle * 200
            lines += [
                "\(t) tap \(anna)", "\(t + 2) click start", "\(t + 18) click dismiss", "\(t + 20) click start", "\(t + 36) click dismiss",
                "\(t + 40) tap \(anna)",                                              // tap out: her two sets
                "\(t + 45) click start", "\(t + 61) click dismiss",                 // a guest's set
                "\(t + 65) tap \(ben)", "\(t + 67) click start", "\(t + 83) click dismiss",
                "\(t + 86) tap \(cleo)",                                             // takes over from Ben: his set
                "\(t + 88) click start", "\(t + 104) click dismiss", "\(t + 106) hold dismiss 2.5",
                "\(t + 112) click start", "\(t + 128) click dismiss", "\(t + 130) hold dismiss 2.5",
            ]
        }
        lines.append("420 end")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The pseudonym of the card `uid` under the simulator's key, which a scripted run without
    /// `[athletes] card_key` uses.
    static func simulated(_ uid: String) -> String { CardKey.simulation.pseudonym(of: CardUID(hex: uid)!).hex }

    /// Each stored record with the card it belongs to (`guest` for none).
    func attributedRecords(in dataDir: String) throws -> [String] {
        let store = try HistoryStore.reading(path: dataDir + "/history.sqlite", faults: FaultLog { _ in })
        return try store.workouts(since: nil).map { "\($0.id) sets=\($0.sets) \($0.athlete?.hex ?? "guest")" }
    }

    /// SIGKILL between a tap and the record it leads to, at random points: every record of an
    /// uninterrupted run is stored once, and each names the athlete it names there.
    @Test func killedBetweenTapsAndRecordsEveryRecordKeepsItsAthlete() throws {
        let files = try Self.scratchDirectory("gymtimer-kill-athletes-")
        defer { try? FileManager.default.removeItem(at: files) }
        try Self.athletesScript.write(to: files.appendingPathComponent("athletes.txt"), atomically: true, encoding: .utf8)
        try Self.athletesConfig.write(to: files.appendingPathComponent("athletes.toml"), atomically: true, encoding: .utf8)

        let clean = files.appendingPathComponent("clean").path
        try finish(dataDir: clean, files: files, script: "athletes.txt", config: "athletes.toml")
        let expected = try attributedRecords(in: clean)
        #expect(expected.map { $0.split(separator: " ").dropFirst().joined(separator: " ") } == Array(repeating: [
            "sets=2 \(Self.simulated("04A1B2C3"))", "sets=1 guest", "sets=1 \(Self.simulated("0422334455667788"))",
            "sets=1 \(Self.simulated("08ABCDEF"))", "sets=1 \(Self.simulated("08ABCDEF"))",
        ], count: 2).flatMap { $0 }, "each record names its athlete by the card's pseudonym (the simulator's key): \(expected)")
        let saves = Self.saves(ofCleanRun: clean)

        let seed = Self.seed(for: "killedBetweenTapsAndRecords")
        var rng = SeededGenerator(seed: seed)
        for round in 0..<6 {
            let dir = files.appendingPathComponent("killed-\(round)").path
            let kills = try killThenFinish(
                dataDir: dir, files: files, saves: saves, using: &rng, script: "athletes.txt", config: "athletes.toml")
            #expect(try attributedRecords(in: dir) == expected, "seed \(seed), round \(round) after \(kills) kills")
        }
    }

    /// A binary that keeps failing (here: its config file is missing) ends the test with what it
    /// said after `maxConsecutiveFailures` runs, instead of being started again forever.
    @Test func aBinaryThatKeepsFailingStopsTheTestWithItsError() throws {
        let files = try Self.scratchDirectory("gymtimer-kill-fail-")
        defer { try? FileManager.default.removeItem(at: files) }
        try Self.script.write(to: files.appendingPathComponent("script.txt"), atomically: true, encoding: .utf8)
        let dir = files.appendingPathComponent("broken").path
        do {
            try finish(dataDir: dir, files: files, config: "missing.toml")
            Issue.record("a run without its config file finished")
        } catch let failure as KillRestartFailure {
            #expect(failure.message.hasPrefix("gymtimer simulate failed 5 times in a row on \(dir); the last: exit status 2: "))
            #expect(failure.message.contains("missing.toml"), "names what went wrong: \(failure.message)")
        }
    }

    /// SIGKILL at 100 random points across mode switches (seeded: the seed is printed, and
    /// GYMTIMER_KILL_SEED replays a failing run), each run then finished: every workout of an
    /// uninterrupted run is stored exactly once.
    @Test func killedAcrossModeSwitchesAHundredTimesLosesAndDuplicatesNothing() throws {
        let files = try Self.scratchDirectory("gymtimer-kill-mixed-")
        defer { try? FileManager.default.removeItem(at: files) }
        try Self.mixedScript.write(to: files.appendingPathComponent("mixed.txt"), atomically: true, encoding: .utf8)
        try Self.mixedConfig.write(to: files.appendingPathComponent("mixed.toml"), atomically: true, encoding: .utf8)

        let clean = files.appendingPathComponent("clean").path
        try finish(dataDir: clean, files: files, script: "mixed.txt", config: "mixed.toml")
        let expected = try records(in: clean)
        let saves = Self.saves(ofCleanRun: clean)
        #expect(expected.filter { $0.contains("rest") }.count == 3 && expected.filter { $0.contains("interval") }.count == 3,
                "the script's three rest and three interval workouts: \(expected)")

        let seed = Self.seed(for: "killedAcrossModeSwitches")
        // Rounds run four at a time (each waits mostly on fsync), each with its own generator;
        // at most `maxRounds`, so runs that never get killed cannot keep it going forever. A
        // kill lands only if the run has not finished by then, which a loaded machine makes
        // rarer (86 in 100 rounds once, beside a release build): the bound leaves room for it.
        let kills = KillRounds()
        let maxRounds = 200
        var nextRound = 0
        while kills.total < 100 && nextRound < maxRounds && kills.failures.isEmpty {
            let first = nextRound
            nextRound += 4
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                let round = first + index
                var rng = SeededGenerator(seed: seed &+ UInt64(round))
                let dir = files.appendingPathComponent("killed-\(round)").path
                var killsThisRound = 0
                var finished = false
                do {
                    while !finished && killsThisRound < 4 {
                        finished = try simulate(
                            dataDir: dir, files: files, killAfter: Int.random(in: 1...saves, using: &rng), script: "mixed.txt",
                            config: "mixed.toml").finished
                        if !finished { killsThisRound += 1 }
                        finished = finished || endedCleanly(dir)
                    }
                    if !finished { try finish(dataDir: dir, files: files, script: "mixed.txt", config: "mixed.toml") }
                    let stored = try records(in: dir)
                    if stored != expected {
                        kills.fail("round \(round) after \(killsThisRound) kills stored \(stored)")
                    }
                } catch {
                    kills.fail("round \(round): \(error)")
                }
                kills.add(killsThisRound)
            }
        }
        // Reported here, on the test's own thread.
        #expect(kills.failures.isEmpty, "seed \(seed), \(kills.total) kills: \(kills.failures.joined(separator: "; "))")
        #expect(kills.total >= 100, "seed \(seed): only \(kills.total) kills landed in \(nextRound) rounds")
    }
}

/// Why a kill-and-restart run could not go on.
struct KillRestartFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Kills and failures counted from several rounds at once.
final class KillRounds: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var failed: [String] = []

    var total: Int { lock.withLock { count } }
    var failures: [String] { lock.withLock { failed } }

    func add(_ kills: Int) { lock.withLock { count += kills } }
    func fail(_ message: String) { lock.withLock { failed.append(message) } }
}
