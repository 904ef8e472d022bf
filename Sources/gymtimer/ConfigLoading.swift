import ArgumentParser
import GymTimerConfig

/// Loads the config for a command: the defaults without a path, otherwise the file, with
/// every problem printed on its own line and exit status 2.
func loadConfiguration(_ path: String?) throws -> GymTimerConfiguration {
    guard let path else { return .defaults }
    do {
        return try GymTimerConfiguration.load(path: path)
    } catch {
        for problem in error.problems { StandardError.writeLine("\(path): \(problem)") }
        throw ExitCode(2)
    }
}
