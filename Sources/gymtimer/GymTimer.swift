import ArgumentParser
import GymTimerCore

/// The `gymtimer` command: the kiosk, its simulator and the owner's tools.
@main
struct GymTimer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gymtimer",
        abstract: "A wall-mounted gym rest timer for the Raspberry Pi.",
        version: GymTimerVersion.current,
        subcommands: [
            Run.self, Selftest.self, Simulate.self, CheckConfig.self, History.self, Stats.self, Bench.self, BenchAudio.self, ReadyProbe.self,
            Collect.self, Athletes.self, Fleet.self, Console.self, UnitNetwork.self, Chain.self, Upgrade.self,
        ]
    )

    /// `gymtimer console …` becomes `gymtimer-console …` before any parsing, so that every
    /// argument reaches it untouched (`--help` too, which the parser would answer itself);
    /// `gymtimer collect|history|stats|athletes --db postgresql://…` becomes `gymtimer-central …`
    /// (a chain's central database: PostgreSQL, which this binary links no client for).
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "console" {
            exit(withError: Console.exec(Array(arguments.dropFirst())))
        }
        if let command = arguments.first, ["collect", "history", "stats", "athletes"].contains(command), SiblingProgram.namesPostgres(Array(arguments.dropFirst())) {
            exit(withError: SiblingProgram.exec(centralProgram, arguments, command: command))
        }
        main(nil)
    }

    /// The chain's central program, looked for in this binary's directory.
    static let centralProgram = "gymtimer-central"
}
