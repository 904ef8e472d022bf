import ArgumentParser
import GymTimerBenchmark

/// Hidden `gymtimer ready-probe`: starts the kiosk on simulated devices, writes its first
/// outputs, prints `ready` and exits. `gymtimer bench` spawns it to time start-up.
struct ReadyProbe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ready-probe", abstract: "Start the kiosk, print 'ready' and its peak RSS after its first outputs, exit (for bench).",
        shouldDisplay: false)

    @Option(name: .long, help: "Config file (TOML); the built-in defaults apply without it.")
    var config: String?

    func run() throws {
        StartupProbe.runProbe(settings: try loadConfiguration(config).kiosk)
    }
}
