import ArgumentParser

/// `gymtimer console`: the coach's web console. It is a program of its own, `gymtimer-console`
/// (Sources/gymtimer-console), installed beside `gymtimer`, so that the kiosk's binary links no
/// HTTP server (Hummingbird, SwiftNIO, which every kiosk process would map and initialise: peak
/// RSS 14.8 → 23 MB). This command replaces itself with that program, every argument unchanged
/// (`GymTimer.main` hands `console …` over before parsing, so `--help` is the console's own).
struct Console: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the coach's web console: the floor live, classes started at one instant, today's scores.",
        discussion: "Runs gymtimer-console, installed beside gymtimer, with the same arguments: `gymtimer console --help` lists its options.")

    @Argument(parsing: .captureForPassthrough, help: "The console's options (--broker, --listen, --library, --pin-file, …).")
    var arguments: [String] = []

    /// The console program's file name, looked for in this binary's directory.
    static let programName = "gymtimer-console"

    func run() throws {
        throw Self.exec(arguments)
    }

    /// Replaces this process with `gymtimer-console ARGUMENTS`; returns only when that cannot
    /// run, with the exit status after printing one line saying why and what to install.
    static func exec(_ arguments: [String]) -> ExitCode {
        SiblingProgram.exec(programName, arguments, command: "console")
    }
}
