import GymTimerCore

/// Writes the simulation trace of simulation.md: one JSON object per change of a physical
/// output, in time order, `t` in seconds rounded to the millisecond. Before `begin()` it only
/// keeps each device's state; `begin()` reports them all at once (the `t` 0 records).
///
/// Each line is built as UTF-8 bytes by hand (the simulator's hot path writes tens of
/// thousands of them a simulated day: string interpolation and splitting cost more than the
/// rest of the loop), and a device's fields are compared before anything else is built.
public final class TraceRecorder {
    private let now: () -> Duration
    private let write: (String) -> Void
    /// Every output's last fields, in the order they were first reported.
    private var slots: [Slot] = []
    /// The slot of each LED by name; the other outputs' slots are kept below.
    private var ledSlots: [String: Int] = [:]
    private var displaySlot: Int?
    private var buzzerSlot: Int?
    private var audioSlot: Int?
    private var started = false

    /// One output: its `device` name and the JSON fields of its last state.
    private struct Slot {
        var device: String
        var fields: [UInt8]
    }

    /// `now` gives the virtual time; `write` receives each JSON line (without newline).
    public init(now: @escaping () -> Duration, write: @escaping (String) -> Void) {
        self.now = now
        self.write = write
    }

    public func display(text: String, colon: Bool) {
        var fields: [UInt8] = []
        fields.reserveCapacity(32)
        fields.append(contentsOf: #""text":"#.utf8)
        Self.appendQuoted(text, to: &fields)
        fields.append(contentsOf: #","colon":"#.utf8)
        Self.append(colon, to: &fields)
        record(&displaySlot, "display", fields)
    }

    public func buzzer(on: Bool) {
        record(&buzzerSlot, "buzzer", on ? Self.onTrue : Self.onFalse)
    }

    public func led(_ name: String, on: Bool) {
        var fields = Array(#""name":"#.utf8)
        Self.appendQuoted(name, to: &fields)
        fields.append(contentsOf: #","on":"#.utf8)
        Self.append(on, to: &fields)
        var slot = ledSlots[name]
        record(&slot, "led", fields)
        ledSlots[name] = slot
    }

    public func audio(_ sound: String?) {
        var fields = Array(#""sound":"#.utf8)
        if let sound { Self.appendQuoted(sound, to: &fields) } else { fields.append(contentsOf: "null".utf8) }
        record(&audioSlot, "audio", fields)
    }

    /// A message the simulated station sent to (or the broker sent for it on) one of its
    /// topics, `topic` being the level after `{prefix}/{station}/` (`status`, `state`, `event`,
    /// `workout`): a `fleet` record, written every time (a message is an event, not a state).
    /// A payload that is one line of JSON is embedded as it is; any other as a string.
    public func fleet(topic: String, payload: String, isJSON: Bool) {
        guard started else { return }
        var line = Self.lineStart(now())
        line.append(contentsOf: #""fleet","topic":"#.utf8)
        Self.appendQuoted(topic, to: &line)
        line.append(contentsOf: #","payload":"#.utf8)
        if isJSON && !payload.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) {
            line.append(contentsOf: payload.utf8)
        } else {
            Self.appendQuoted(payload, to: &line)
        }
        line.append(UInt8(ascii: "}"))
        write(String(decoding: line, as: UTF8.self))
    }

    /// Starts reporting: every device's current state now, then each change as it happens.
    public func begin() {
        started = true
        for slot in slots { emit(slot) }
    }

    /// Keeps `fields` as the output's state (its slot made at its first report) and, once
    /// started, writes it when it changed.
    private func record(_ index: inout Int?, _ device: String, _ fields: [UInt8]) {
        guard let at = index else {
            index = slots.count
            slots.append(Slot(device: device, fields: fields))
            if started { emit(slots[slots.count - 1]) }
            return
        }
        guard slots[at].fields != fields else { return }
        slots[at].fields = fields
        if started { emit(slots[at]) }
    }

    private func emit(_ slot: Slot) {
        var line = Self.lineStart(now())
        line.append(UInt8(ascii: "\""))
        line.append(contentsOf: slot.device.utf8)
        line.append(contentsOf: #"","#.utf8)
        line.append(contentsOf: slot.fields)
        line.append(UInt8(ascii: "}"))
        write(String(decoding: line, as: UTF8.self))
    }

    private static let onTrue = Array(#""on":true"#.utf8)
    private static let onFalse = Array(#""on":false"#.utf8)

    /// `{"t":<seconds>,"device":` — the start every line shares.
    private static func lineStart(_ time: Duration) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(64)
        line.append(contentsOf: #"{"t":"#.utf8)
        appendSeconds(time, to: &line)
        line.append(contentsOf: #","device":"#.utf8)
        return line
    }

    /// Seconds with millisecond precision and at least one decimal: `2.0`, `2.01`, `88.125`.
    static func seconds(_ time: Duration) -> String {
        var bytes: [UInt8] = []
        appendSeconds(time, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `seconds(time)`'s text.
    private static func appendSeconds(_ time: Duration, to out: inout [UInt8]) {
        let millis = (time.nanoseconds + 500_000) / 1_000_000
        guard millis >= 0 else { return out.append(contentsOf: negativeSeconds(millis).utf8) }
        appendDecimal(millis / 1000, to: &out)
        out.append(UInt8(ascii: "."))
        var fraction = millis % 1000
        guard fraction != 0 else { return out.append(UInt8(ascii: "0")) }
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        var divisor: Int64 = digits == 3 ? 100 : digits == 2 ? 10 : 1
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    /// A time before the trace's start (never written by the simulators), as it always was written.
    private static func negativeSeconds(_ millis: Int64) -> String {
        let whole = millis / 1000, fraction = millis % 1000
        guard fraction != 0 else { return "\(whole).0" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: max(0, 3 - digits.count)) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// A non-negative integer in decimal.
    private static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
        guard value >= 10 else { return out.append(UInt8(ascii: "0") + UInt8(value)) }
        appendDecimal(value / 10, to: &out)
        out.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    private static func append(_ flag: Bool, to out: inout [UInt8]) {
        out.append(contentsOf: flag ? "true".utf8 : "false".utf8)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `text` as a JSON string: quote and backslash escaped, control characters as `\u00xx`.
    private static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case ..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
