import ArgumentParser
import Foundation
import GymTimerConfig

/// Loads the config for a command: the defaults without a path, otherwise the file, with
/// every problem printed on its own line and exit status 2.
func loadConfiguration(_ path: String) throws -> GymTimerConfiguration {
    try ParserCrashGuard.check(path)
    do {
        return try GymTimerConfiguration.load(path: path)
    } catch {
        for problem in error.problems { StandardError.writeLine("\(path): \(problem)") }
        throw ExitCode(2)
    }
}

func loadConfiguration(_ path: String?) throws -> GymTimerConfiguration {
    guard let path else { return .defaults }
    return try loadConfiguration(path)
}

/// The TOML parser inside TOMLKit (toml++) aborts on some malformed files instead of reporting
/// them (fuzzing found several, e.g. `exercises = [}a"]`). So the file is first parsed by a
/// child copy of this program (`check-config` with `GYMTIMER_PARSE_CHILD` set); if that child
/// dies of a signal, the user gets one line and exit status 2 instead of a crash. This runs at
/// start-up, before any thread or device is opened.
enum ParserCrashGuard {
    static let childVariable = "GYMTIMER_PARSE_CHILD"

    static func check(_ path: String) throws {
        guard ProcessInfo.processInfo.environment[childVariable] == nil else { return }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        child.arguments = ["check-config", path]
        child.environment = ProcessInfo.processInfo.environment.merging([childVariable: "1"]) { $1 }
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        // If the child cannot even be started, parse in this process as before.
        guard (try? child.run()) != nil else { return }
        child.waitUntilExit()
        if child.terminationReason == .uncaughtSignal {
            StandardError.writeLine(
                "\(path): not valid TOML: the parser failed on it without saying where; check brackets, braces and quotes (`gymtimer check-config` on a copy helps narrow it down)")
            throw ExitCode(2)
        }
    }
}
