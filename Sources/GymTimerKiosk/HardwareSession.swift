import GymTimerConfig
import GymTimerHardware
import GymTimerSystem

/// What `run` and `selftest` both start with: SIGTERM/SIGINT as a pollable wake-up and the
/// hardware opened from the config.
struct HardwareSession {
    let signals: StopSignals
    let hardware: HardwareKiosk

    init(configuration: GymTimerConfiguration, opener: DeviceOpener) throws(KioskStartError) {
        do { signals = try StopSignals() } catch { throw .failed("\(error)") }
        do { hardware = try HardwareKiosk(settings: configuration.hardware, opener: opener) } catch { throw .refused("\(error)") }
    }
}
