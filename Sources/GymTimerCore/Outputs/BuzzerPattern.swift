/// A buzzer rhythm: alternating on/off steps starting with "on", played once or looped.
/// The pattern player in the drivers turns it into line writes at the right moments.
public struct BuzzerPattern: Hashable, Sendable, Codable {
    /// Step lengths, alternately on and off, the first one on.
    public var steps: [Duration]
    /// Whether the steps repeat until another pattern replaces them.
    public var loops: Bool

    public init(steps: [Duration], loops: Bool) {
        self.steps = steps
        self.loops = loops
    }

    /// Silence.
    public static let off = BuzzerPattern(steps: [], loops: false)
    /// The short 3-2-1 warning beep (100 ms).
    public static let warningBeep = BuzzerPattern(steps: [.milliseconds(100)], loops: false)
    /// The alarm: 250 ms on, 250 ms off, until dismissed.
    public static let alarm = BuzzerPattern(steps: [.milliseconds(250), .milliseconds(250)], loops: true)
    /// The end-of-workout signal: one long beep.
    public static let longBeep = BuzzerPattern(steps: [.milliseconds(1500)], loops: false)

    /// Total length of one pass through the steps.
    public var period: Duration { steps.reduce(.zero, +) }
}
