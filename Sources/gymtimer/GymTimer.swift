import ArgumentParser

/// The `gymtimer` command: the kiosk, its simulator and the owner's tools.
@main
struct GymTimer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gymtimer",
        abstract: "A wall-mounted gym rest timer for the Raspberry Pi.",
        subcommands: [Simulate.self, CheckConfig.self]
    )

    /// Runs the command, turning a `CLIError` into its one line on stderr and its exit status
    /// (ArgumentParser alone would print it raw and exit 1).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as CLIError {
            exit(withError: error.exitCode)
        } catch {
            exit(withError: error)
        }
    }
}
