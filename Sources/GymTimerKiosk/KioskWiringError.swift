import GymTimerHAL

/// A device of the kiosk that could not be opened at start-up: what it is for and the config
/// key that names it, then the device's own error (which names the chip, line or bus and the fix).
public struct KioskWiringError: Error, Hashable, CustomStringConvertible {
    /// What the device is for and where the config names it, e.g. `start button ([hardware.lines] start)`.
    public var role: String
    public var error: HALError

    public init(role: String, error: HALError) {
        self.role = role
        self.error = error
    }

    public var description: String { "\(role): \(error)" }
}
