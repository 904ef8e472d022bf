/// A sound cue for the audio output, by name (`alarm`, `warning`, `complete`, `set-3`, …).
/// The audio layer maps the name to samples; the simulator reports the name in its trace.
public struct Sound: Hashable, Sendable, Codable, CustomStringConvertible {
    public var name: String
    /// Whether it repeats until stopped (the alarm) or plays once.
    public var loops: Bool

    public init(name: String, loops: Bool = false) {
        self.name = name
        self.loops = loops
    }

    public static let alarm = Sound(name: "alarm", loops: true)
    public static let warning = Sound(name: "warning")
    public static let complete = Sound(name: "complete")
    public static let restOver = Sound(name: "rest-over")
    /// "Set N completing in 3, 2, 1".
    public static func setCompleting(_ n: Int) -> Sound { Sound(name: "set-\(n)") }
    /// The calls of programs (programs.md): "Go", "Work", "Rest", "Round N", "Halfway",
    /// "Last minute", "Time cap".
    public static let go = Sound(name: "go")
    public static let work = Sound(name: "work")
    public static let rest = Sound(name: "rest")
    public static func round(_ n: Int) -> Sound { Sound(name: "round-\(n)") }
    public static let halfway = Sound(name: "halfway")
    public static let lastMinute = Sound(name: "last-minute")
    public static let timeCap = Sound(name: "time-cap")

    public var description: String { name }
}
