import ArgumentParser
import GymTimerKiosk

/// `gymtimer run`: the kiosk on the Raspberry Pi's hardware, until SIGTERM or Ctrl-C (see
/// `KioskService`).
///
/// A device that cannot be opened at start-up (no such chip or line, a busy line, no
/// permission, I2C or SPI not enabled) is one line naming it and the fix, with exit status 2.
/// A device that fails later is logged once and retried while the countdown goes on. SIGTERM
/// or SIGINT blanks the display, silences the buzzer, releases the lines and exits 0.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the kiosk on the Raspberry Pi's GPIO, I2C or SPI devices.")

    @Option(name: .long, help: "Config file (TOML; default /etc/gymtimer/config.toml, else the built-in defaults).")
    var config: String?

    func run() throws {
        let configuration = try loadKioskConfiguration(config)
        do {
            try KioskService.run(configuration: configuration, log: { StandardError.writeLine(JournalLine.format($0)) })
        } catch {
            throw CLIError.exit(error)
        }
    }
}
