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
            Collect.self, Fleet.self, Console.self, UnitNetwork.self,
        ]
    )

}
