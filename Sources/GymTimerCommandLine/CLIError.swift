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

    /// What `make` makes of the command's input; what it throws is the user's to fix (`usage`).
    public static func asUsage<T>(_ make: () throws -> T) throws -> T {
        do {
            return try make()
        } catch {
            throw usage("\(error)")
        }
    }

    /// Runs `body`; what it throws stops the command (`failed`), said after `what`.
    public static func asFailure(_ what: String = "", _ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            throw failed(what + "\(error)")
        }
    }
}
