/// An output line driven at its logical level: `true` is active (LED lit, buzzer sounding).
public protocol DigitalOutput: AnyObject {
    /// The role the line was requested for (`buzzer`, `led-ready`, …).
    var name: String { get }
    /// Drives the line to `active`.
    func write(_ active: Bool) throws(HALError)
}
