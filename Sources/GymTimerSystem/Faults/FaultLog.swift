/// Logs device faults once per device, not once per write: a dead display or a missing sound
/// card gives one line when it fails and one when it recovers, while the timer keeps working.
public final class FaultLog {
    private let sink: (String) -> Void
    private var failing: Set<String> = []
    /// The last fault logged (`device: error`), for the station's health; nil before any.
    public private(set) var lastFault: String?
    /// Counts the changes of `failing` (a failure or a recovery): the fleet's health is
    /// published again when it moved, without comparing anything on every wake-up.
    public private(set) var changes = 0
    /// The devices failing now.
    public var failingDevices: Set<String> { failing }

    /// `sink` receives each line to log (stderr, the journal, or a test's array).
    public init(sink: @escaping (String) -> Void) { self.sink = sink }

    /// Records that `device` failed; logs only the first failure in a row.
    public func failed(_ device: String, _ error: any Error) {
        guard failing.insert(device).inserted else { return }
        lastFault = "\(device): \(error)"
        changes &+= 1
        sink("fault: \(device): \(error)")
    }

    /// Records that `device` worked; logs the recovery if it had been failing.
    public func succeeded(_ device: String) {
        guard failing.remove(device) != nil else { return }
        changes &+= 1
        sink("recovered: \(device) works again")
    }

    /// Logs `line` as it is, every time: for events that happen once (a file moved aside).
    public func note(_ line: String) { sink(line) }

    /// Whether `device` is currently failing.
    public func isFailing(_ device: String) -> Bool { failing.contains(device) }

    /// Runs `operation` for `device`, logging a failure once and a recovery once.
    @discardableResult
    public func attempt<T>(_ device: String, _ operation: () throws -> T) -> T? {
        do {
            let result = try operation()
            succeeded(device)
            return result
        } catch {
            failed(device, error)
            return nil
        }
    }
}
