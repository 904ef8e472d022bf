import ArgumentParser

/// Failures the command reports as one line on stderr with its exit status: 2 for input the
/// user must fix (a bad config, script or device), 1 for anything else. Shared by `gymtimer` and
/// `gymtimer-console`, which both print `gymtimer: …`.
public enum CLIError {
    /// Something the user must fix: prints `message` and returns exit status 2.
    public static func usage(_ message: String) -> ExitCode {
        StandardError.writeLine("gymtimer: \(message)")
        return ExitCode(2)
    }

    /// Anything else that stops the command: prints `message` and returns exit status 1.
    public static func failed(_ message: String) -> ExitCode {
        StandardError.writeLine("gymtimer: \(message)")
        return ExitCode(1)
    }
}
