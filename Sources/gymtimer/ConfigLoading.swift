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
        guard ProcessInfo.processInfo.environment[childVariable] == nil,
              access("/proc/self/exe", X_OK) == 0 // no /proc (a bare chroot): parse in-process as before
        else { return }
        guard let status = spawnChild(arguments: ["/proc/self/exe", "check-config", path]) else { return }
        // Killed by a signal (the parser aborted), not an ordinary exit.
        if status & 0x7f != 0 {
            StandardError.writeLine(
                "\(path): not valid TOML: the parser failed on it without saying where; check brackets, braces and quotes (`gymtimer check-config` on a copy helps narrow it down)")
            throw ExitCode(2)
        }
    }

    /// Runs this program again with `arguments`, output discarded, and returns its wait
    /// status; nil if it could not be started. Plain posix_spawn: nothing else runs yet.
    private static func spawnChild(arguments: [String]) -> Int32? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" } + ["\(childVariable)=1"]
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp) == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        return status
    }
}
