import Foundation
import GymTimerConfig
import GymTimerHardware

/// What `run` and `selftest` both start with: the config, SIGTERM/SIGINT as a pollable wake-up,
/// and the hardware opened from the config — each failure one line with its exit status.
struct HardwareSession {
    let configuration: GymTimerConfiguration
    let signals: StopSignals
    let hardware: HardwareKiosk

    /// The config file a kiosk reads unless told otherwise.
    static let defaultConfigPath = "/etc/gymtimer/config.toml"

    /// `configPath` nil: the default file if it exists, else the built-in defaults (every key
    /// is optional, so a kiosk without a config file starts, and says so).
    /// `prepare` runs with the config before any device is opened (the data directory's lock,
    /// so a second kiosk is refused by name rather than by a busy GPIO line).
    init(configPath: String?, prepare: (GymTimerConfiguration) throws -> Void = { _ in }) throws {
        if let configPath {
            configuration = try loadConfiguration(configPath)
        } else if FileManager.default.fileExists(atPath: Self.defaultConfigPath) {
            configuration = try loadConfiguration(Self.defaultConfigPath)
        } else {
            StandardError.writeLine("no config file at \(Self.defaultConfigPath): running on the built-in defaults")
            configuration = .defaults
        }
        try prepare(configuration)
        do { signals = try StopSignals() } catch { throw CLIError.failed("\(error)") }
        do { hardware = try HardwareKiosk(settings: configuration.hardware) } catch { throw CLIError.usage("\(error)") }
    }
}
