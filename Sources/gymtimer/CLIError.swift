import ArgumentParser
import GymTimerKiosk

/// Failures the command reports as one line on stderr with its exit status: 2 for input the
/// user must fix (a bad config, script or device), 1 for anything else.
enum CLIError {
    /// Something the user must fix: prints `message` and returns exit status 2.
    static func usage(_ message: String) -> ExitCode {
        StandardError.writeLine("gymtimer: \(message)")
        return ExitCode(2)
    }

    /// Anything else that stops the command: prints `message` and returns exit status 1.
    static func failed(_ message: String) -> ExitCode {
        StandardError.writeLine("gymtimer: \(message)")
        return ExitCode(1)
    }

    /// A kiosk start-up or run failure: exit status 2 for what the owner must fix, else 1.
    static func exit(_ error: KioskStartError) -> ExitCode {
        switch error {
        case .refused(let message): return usage(message)
        case .failed(let message): return failed(message)
        }
    }
}
