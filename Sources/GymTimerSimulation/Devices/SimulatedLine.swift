import GymTimerHAL

/// A GPIO line in memory: inputs are driven by the simulator, outputs are written by the
/// kiosk, and `onChange` lets the trace observe every change of level.
public final class SimulatedLine: DigitalInput, DigitalOutput {
    public let name: String
    public private(set) var level: Bool
    /// Called with the new level whenever it changes.
    public var onChange: ((Bool) -> Void)?
    /// When set, every read and write fails with this error (a device fault).
    public var failure: HALError?

    public init(name: String, level: Bool = false) {
        self.name = name
        self.level = level
    }

    public func read() throws(HALError) -> Bool {
        if let failure { throw failure }
        return level
    }

    public func write(_ active: Bool) throws(HALError) {
        if let failure { throw failure }
        drive(active)
    }

    /// Sets the level from the simulated world (a finger on a button).
    public func drive(_ active: Bool) {
        guard active != level else { return }
        level = active
        onChange?(active)
    }
}
