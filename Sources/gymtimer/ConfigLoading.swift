import ArgumentParser
import Foundation
import GymTimerConfig
import GymTimerSystem

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

/// The config file a kiosk reads unless told otherwise.
let defaultKioskConfigPath = "/etc/gymtimer/config.toml"

/// The config for `run` and `selftest`: `path`, else the default file if it exists, else the
/// built-in defaults (every key is optional, so a kiosk without a config file starts, and says so).
func loadKioskConfiguration(_ path: String?) throws -> GymTimerConfiguration {
    if let path { return try loadConfiguration(path) }
    if FileManager.default.fileExists(atPath: defaultKioskConfigPath) { return try loadConfiguration(defaultKioskConfigPath) }
    StandardError.writeLine("no config file at \(defaultKioskConfigPath): running on the built-in defaults")
    return .defaults
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
        guard ProcessInfo.processInfo.environment[childVariable] == nil,
              access("/proc/self/exe", X_OK) == 0 // no /proc (a bare chroot): parse in-process as before
        else { return }
        var environment = ProcessInfo.processInfo.environment
        environment[childVariable] = "1"
        let child = ChildProcess(executable: "/proc/self/exe", arguments: ["check-config", path], environment: environment)
        // Could not be started: parse in-process as before. Killed by a signal: the parser aborted.
        guard let outcome = try? child.run(), outcome.signal != nil else { return }
        StandardError.writeLine(
            "\(path): not valid TOML: the parser failed on it without saying where; check brackets, braces and quotes (`gymtimer check-config` on a copy helps narrow it down)")
        throw ExitCode(2)
    }
}
