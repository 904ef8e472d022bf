import GymTimerCore

/// Writes the simulation trace of simulation.md: one JSON object per change of a physical
/// output, in time order, `t` in seconds rounded to the millisecond. Before `begin()` it only
/// keeps each device's state; `begin()` reports them all at once (the `t` 0 records).
public final class TraceRecorder {
    private let now: () -> Duration
    private let write: (String) -> Void
    private var order: [String] = []
    private var states: [String: String] = [:]
    private var started = false

    /// `now` gives the virtual time; `write` receives each JSON line (without newline).
    public init(now: @escaping () -> Duration, write: @escaping (String) -> Void) {
        self.now = now
        self.write = write
    }

    public func display(text: String, colon: Bool) {
        record("display", #""text":\#(quoted(text)),"colon":\#(colon)"#)
    }

    public func buzzer(on: Bool) {
        record("buzzer", #""on":\#(on)"#)
    }

    public func led(_ name: String, on: Bool) {
        record("led:\(name)", #""name":\#(quoted(name)),"on":\#(on)"#)
    }

    public func audio(_ sound: String?) {
        record("audio", #""sound":\#(sound.map(quoted) ?? "null")"#)
    }

    /// A message the simulated station sent to (or the broker sent for it on) one of its
    /// topics, `topic` being the level after `{prefix}/{station}/` (`status`, `state`, `event`,
    /// `workout`): a `fleet` record, written every time (a message is an event, not a state).
    /// A payload that is one line of JSON is embedded as it is; any other as a string.
    public func fleet(topic: String, payload: String, isJSON: Bool) {
        guard started else { return }
        let embedded = isJSON && !payload.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) ? payload : quoted(payload)
        write(#"{"t":\#(Self.seconds(now())),"device":"fleet","topic":\#(quoted(topic)),"payload":\#(embedded)}"#)
    }

    /// Starts reporting: every device's current state now, then each change as it happens.
    public func begin() {
        started = true
        for key in order { emit(key, states[key]!) }
    }

    private func record(_ key: String, _ fields: String) {
        if states[key] == nil { order.append(key) }
        guard states[key] != fields else { return }
        states[key] = fields
        if started { emit(key, fields) }
    }

    private func emit(_ key: String, _ fields: String) {
        let device = key.split(separator: ":").first.map(String.init) ?? key
        write(#"{"t":\#(Self.seconds(now())),"device":"\#(device)",\#(fields)}"#)
    }

    /// Seconds with millisecond precision and at least one decimal: `2.0`, `2.01`, `88.125`.
    static func seconds(_ time: Duration) -> String {
        let millis = (time.nanoseconds + 500_000) / 1_000_000
        let whole = millis / 1000, fraction = millis % 1000
        guard fraction != 0 else { return "\(whole).0" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    private func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
