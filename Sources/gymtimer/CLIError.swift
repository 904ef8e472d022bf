import ArgumentParser

/// A failure the command reports as one line on stderr with its exit status: 2 for input the
/// user must fix (a bad config, script or device), 1 for anything else.
enum CLIError: Error {
    case usage(String)
    case failed(String)
}

extension CLIError {
    /// Prints the message and converts to the exit code ArgumentParser returns.
    var exitCode: ExitCode {
        switch self {
        case .usage(let message):
            StandardError.writeLine("gymtimer: \(message)")
            return ExitCode(2)
        case .failed(let message):
            StandardError.writeLine("gymtimer: \(message)")
            return ExitCode(1)
        }
    }
}
