import Foundation
import GymTimerCore
import GymTimerDrivers
import GymTimerHistory
import GymTimerRuntime
import Testing

/// A real `gymtimer simulate` process, killed with SIGKILL at random points of its script and
/// started again on the same data directory, ends with exactly the history of a run that was
/// never interrupted: no record lost, none written twice.
@Suite struct KillRestartTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let binary = root.appendingPathComponent(".build/debug/gymtimer").path

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

    /// Runs simulate on `dataDir`; with `killAfter`, SIGKILLs it once it has printed that many
    /// trace lines. Returns whether it ran to the end.
    func simulate(dataDir: String, files: URL, killAfter: Int?) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = [
            "simulate", "--script", files.appendingPathComponent("script.txt").path,
            "--config", files.appendingPathComponent("config.toml").path, "--data-dir", dataDir,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var killed = false
        if let killAfter {
            var seen = 0
            var buffer = Data()
            while seen < killAfter {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                seen = buffer.reduce(0) { $1 == 10 ? $0 + 1 : $0 }
            }
            if seen >= killAfter {
                kill(process.processIdentifier, SIGKILL)
                killed = true
            }
        }
        _ = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return !killed && process.terminationStatus == 0
    }

    func records(in dataDir: String) throws -> [String] {
        let store = try HistoryStore.reading(path: dataDir + "/history.sqlite", faults: FaultLog { _ in })
        return try store.workouts(since: nil).map { "\($0.id) \($0.kind) sets=\($0.sets) \($0.durationMilliseconds)ms at \($0.completedAt)" }
    }

    @Test func killedAtRandomPointsAndRestartedNeverLosesOrDuplicatesARecord() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build first: swift build")
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("gymtimer-kill-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: files) }
        try Self.script.write(to: files.appendingPathComponent("script.txt"), atomically: true, encoding: .utf8)
        try Self.config.write(to: files.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)

        let clean = files.appendingPathComponent("clean").path
        #expect(try simulate(dataDir: clean, files: files, killAfter: nil))
        let expected = try records(in: clean)
        #expect(expected.count == 12, "every workout of the script is recorded once")

        var rng = SystemRandomNumberGenerator()
        for round in 0..<4 {
            let dir = files.appendingPathComponent("killed-\(round)").path
            var kills = 0
            // Kill it again and again at random points, then let it finish.
            while kills < 3 {
                let finished = try simulate(dataDir: dir, files: files, killAfter: Int.random(in: 1...250, using: &rng))
                if finished { break }
                kills += 1
            }
            while try !simulate(dataDir: dir, files: files, killAfter: nil) {}
            #expect(try records(in: dir) == expected, "round \(round) after \(kills) kills")
        }
    }
}
