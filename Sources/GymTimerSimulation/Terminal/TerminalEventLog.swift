import GymTimerCore
import GymTimerDrivers

/// The last few things that happened at the simulated kiosk, each with its time, for the
/// terminal's event list: what the hands did, beeps, cues with the words they say, records and
/// faults. Bursts are merged so the list stays readable: a run of knob detents one way is one entry
/// (at the time of its first),
/// and a buzzer pulsing (the alarm, a fallback cue) is one beep until it has been quiet for a while.
public struct TerminalEventLog: Sendable {
    /// One line of the list.
    public struct Entry: Hashable, Sendable {
        public var time: Duration
        public var text: String
    }

    /// How many entries are kept (and shown where the terminal has room).
    public static let capacity = 5
    /// A buzzer that comes on within this long of its last beep is the same burst.
    static let beepGap = Duration.milliseconds(800)
    /// Detents this close together are one turn of the knob.
    static let turnGap = Duration.seconds(1)

    public private(set) var entries: [Entry] = []
    private var lastBeep: Duration?
    /// The turn logged last, while it is the newest entry: its detents so far and the latest.
    private var turn: (detents: Int, at: Duration)?

    public init() {}

    /// Logs `text` at `time`.
    public mutating func note(_ text: String, at time: Duration) {
        turn = nil
        append(Entry(time: time, text: text))
    }

    /// Logs `detents` of the knob, merged into the turn logged just before if it was recent and
    /// went the same way. A turn back is a turn of its own, with its own time: `−6` then `+2`
    /// used to show as one `−4` at the time of the first.
    public mutating func knob(_ detents: Int, at time: Duration) {
        // `turn` is set only while the knob's entry is the last one (every other entry clears it).
        if let turn, time - turn.at <= Self.turnGap, (turn.detents < 0) == (detents < 0), detents != 0 {
            let total = turn.detents + detents
            entries[entries.count - 1] = Entry(time: entries[entries.count - 1].time, text: Self.knobText(total))
            self.turn = (total, time)
            return
        }
        append(Entry(time: time, text: Self.knobText(detents)))
        turn = (detents, time)
    }

    /// Logs a beep when the buzzer comes on after being quiet; returns whether it did (a
    /// terminal bell rings then).
    @discardableResult
    public mutating func buzzer(_ on: Bool, at time: Duration) -> Bool {
        guard on else { return false }
        defer { lastBeep = time }
        if let lastBeep, time - lastBeep < Self.beepGap { return false }
        note("beep", at: time)
        return true
    }

    /// Logs a cue starting, with what it says aloud if it is spoken.
    public mutating func sound(_ name: String?, at time: Duration) {
        guard let name else { return }
        note("♪ " + Self.soundText(name), at: time)
    }

    /// What a cue sounds like, for a person reading the screen: the words of a spoken cue in
    /// quotes, otherwise its name (`alarm`, `warning`).
    public static func soundText(_ name: String) -> String {
        Sound(name: name).flatMap(SoundLibrary.spokenText(for:)).map { "\"\($0)\"" } ?? name
    }

    /// `+3` / `−2` detents.
    static func knobText(_ detents: Int) -> String {
        "knob " + (detents >= 0 ? "+\(detents)" : "−\(detents.magnitude)")
    }

    /// The entries as lines, oldest first: `  0:12.4  start pressed`.
    public func lines() -> [String] {
        entries.map { Self.clock($0.time) + "  " + $0.text }
    }

    /// `m:ss.t` since the simulator started.
    static func clock(_ time: Duration) -> String {
        let tenths = max(0, time.components.seconds * 10 + time.components.attoseconds / 100_000_000_000_000_000)
        let seconds = tenths / 10
        let second = seconds % 60
        return "\(seconds / 60):\(second < 10 ? "0" : "")\(second).\(tenths % 10)"
    }

    private mutating func append(_ entry: Entry) {
        entries.append(entry)
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }
}
