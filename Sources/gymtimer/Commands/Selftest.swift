import ArgumentParser
import GymTimerKiosk

/// `gymtimer selftest`: the wiring check after soldering (see `WiringCheck`), on the devices the
/// config names, with the same start-up errors as `run`. Ctrl-C ends it with every output off.
struct Selftest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selftest",
        abstract: "Check the wiring: light the display, each LED and the buzzer, then print every button and knob action.")

    @Option(name: .long, help: "Config file (TOML; default /etc/gymtimer/config.toml, else the built-in defaults).")
    var config: String?

    func run() throws {
        let configuration = try loadKioskConfiguration(config)
        let output = StandardOutput()
        do {
            try WiringCheck.run(configuration: configuration) { line in
                output.writeLine(line)
                output.flush()
            }
        } catch {
            throw CLIError.exit(error)
        }
    }
}
