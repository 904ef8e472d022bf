import GymTimerConfig
import GymTimerHardware

/// What `run` and `selftest` both start with: the config, SIGTERM/SIGINT as a pollable wake-up,
/// and the hardware opened from the config — each failure one line with its exit status.
struct HardwareSession {
    let configuration: GymTimerConfiguration
    let signals: StopSignals
    let hardware: HardwareKiosk

    init(configPath: String) throws {
        configuration = try loadConfiguration(configPath)
        do { signals = try StopSignals() } catch { throw CLIError.failed("\(error)") }
        do { hardware = try HardwareKiosk(settings: configuration.hardware) } catch { throw CLIError.usage("\(error)") }
    }
}
