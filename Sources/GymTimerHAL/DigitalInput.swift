/// An input line read at its logical level: `true` is active (pressed), whatever the wiring's
/// polarity; active-low inversion is the backend's job.
public protocol DigitalInput: AnyObject {
    /// The role the line was requested for (`start`, `encoder-a`, …).
    var name: String { get }
    /// The current logical level.
    func read() throws(HALError) -> Bool
}
