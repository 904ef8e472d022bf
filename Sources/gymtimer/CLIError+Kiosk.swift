import ArgumentParser
import GymTimerKiosk

extension CLIError {
    /// A kiosk start-up or run failure: exit status 2 for what the owner must fix, else 1.
    static func exit(_ error: KioskStartError) -> ExitCode {
        switch error {
        case .refused(let message): return usage(message)
        case .failed(let message): return failed(message)
        }
    }
}
