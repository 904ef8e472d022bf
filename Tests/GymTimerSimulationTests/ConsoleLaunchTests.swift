import Foundation
import Testing

/// `gymtimer console …` runs `gymtimer-console` from gymtimer's own directory with every
/// argument unchanged, or says in one line which file is missing and what to install.
@Suite struct ConsoleLaunchTests {
    /// A copy of the gymtimer binary alone in a scratch directory (a hard link when it can:
    /// /proc/self/exe then names the scratch directory, where a symbolic link would not).
    private static func lone(in files: ScratchDirectory) throws -> String {
        let copy = files.path + "/gymtimer"
        do {
            try FileManager.default.linkItem(atPath: GymtimerBinary.path, toPath: copy)
        } catch {
            try FileManager.default.copyItem(atPath: GymtimerBinary.path, toPath: copy)
        }
        return copy
    }

    @Test func everyArgumentReachesTheConsoleUnchanged() throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        let gymtimer = try Self.lone(in: files)
        // A stand-in console that prints its arguments one per line and exits 7.
        let stub = files.path + "/gymtimer-console"
        try "#!/bin/sh\nprintf '[%s]\\n' \"$@\"\nexit 7\n".write(toFile: stub, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stub)
        let arguments = ["--broker", "mqtt://127.0.0.1:1883", "--listen", "127.0.0.1:8080", "--help", "two words", "", "--version", "console"]
        let outcome = try GymtimerBinary.run(["console"] + arguments, executable: gymtimer)
        #expect(outcome.status == 7, "\(outcome.stderr)")
        #expect(outcome.stdout == arguments.map { "[\($0)]\n" }.joined(), "\(outcome.stdout)")
        #expect(outcome.stderr.isEmpty, "\(outcome.stderr)")
    }

    @Test func aMissingConsoleIsOneLineNamingItsPath() throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        let gymtimer = try Self.lone(in: files)
        let outcome = try GymtimerBinary.run(["console", "--broker", "mqtt://127.0.0.1:1883", "--listen", "127.0.0.1:8080"], executable: gymtimer)
        #expect(outcome.status == 1)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("gymtimer: console: \(files.path)/gymtimer-console is missing"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("install the gymtimer package"), "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }

    /// The built pair: `gymtimer console --help` is the console's own help, not gymtimer's.
    @Test func theBuiltConsoleAnswersThroughGymtimer() throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let outcome = try GymtimerBinary.run(["console", "--help"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("USAGE: gymtimer-console --broker <broker>"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("--listen <listen>") && outcome.stdout.contains("--pin-file <pin-file>"), "\(outcome.stdout)")
    }
}
