import Foundation
import GymTimerRuntime
import GymTimerSetup
import Testing

/// The command line facing a bad config or none (issue #12, item 11).
@Suite struct CLIFaultTests {
    /// `history` and `stats` with a bad --config print the config's problems and exit 2, not
    /// "ExitCode(rawValue: 2)".
    @Test(arguments: ["history", "stats"])
    func aBadConfigIsItsProblemsNotAnExitCode(command: String) throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        let config = files.path + "/config.toml"
        try "[rest]\ndefault_seconds = \"long\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let outcome = try GymtimerBinary.run([command, "--config", config])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("rest.default_seconds"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("ExitCode"), "\(outcome.stderr)")
    }

    /// `gymtimer run` without /etc/gymtimer/config.toml starts on the built-in defaults (it then
    /// stops at the first device it cannot open on a machine without the kiosk's hardware).
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/etc/gymtimer/config.toml"), "/etc/gymtimer/config.toml exists here"))
    func runWithoutAConfigFileStartsOnTheDefaults() throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        let outcome = try GymtimerBinary.run(["run", "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("else the built-in defaults"), "\(outcome.stdout)")
        // The real start, bounded by timeout(1) in case this machine has the hardware.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["5", GymtimerBinary.path, "run"]
        let errPath = files.path + "/stderr"
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let stderr = try String(contentsOfFile: errPath, encoding: .utf8)
        #expect(stderr.contains("no config file at /etc/gymtimer/config.toml: running on the built-in defaults"), "\(stderr)")
        #expect(!stderr.contains("no such file"), "\(stderr)")
    }

    /// A second `gymtimer run` on a data directory another process holds is refused with one
    /// line naming the holder, before it opens (or fails on) any device.
    @Test func aSecondKioskIsRefusedNamingTheFirst() throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        let data = files.path + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let config = files.path + "/config.toml"
        try "[history]\npath = \"\(data)/history.sqlite\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let holder = try DataDirectoryLock(directory: data)
        let outcome = try GymtimerBinary.run(["run", "--config", config])
        withExtendedLifetime(holder) {}
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "gymtimer: \(data) is in use by gymtimer process \(getpid()); stop it first (only one controller may use a data directory)\n")
    }
}
