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
            Collect.self, Athletes.self, Fleet.self, Console.self, UnitNetwork.self, Chain.self,
        ]
    )

    /// `gymtimer console …` becomes `gymtimer-console …` before any parsing, so that every
    /// argument reaches it untouched (`--help` too, which the parser would answer itself).
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "console" {
            exit(withError: Console.exec(Array(arguments.dropFirst())))
        }
        main(nil)
    }
}
