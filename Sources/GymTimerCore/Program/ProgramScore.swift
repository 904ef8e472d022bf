/// The result of a finished program, as the history keeps it: rounds (amrap), time and rounds or
/// capped (for-time), rounds done (intervals, emom).
public struct ProgramScore: Hashable, Sendable, Codable, CustomStringConvertible {
    public var rounds: Int
    /// The finishing time of a for-time program done before its cap.
    public var time: Duration?
    /// Whether a for-time program reached its cap.
    public var capped: Bool

    public init(rounds: Int, time: Duration? = nil, capped: Bool = false) {
        self.rounds = rounds
        self.time = time
        self.capped = capped
    }

    /// `8 rounds`, `12:34, 3 rounds`, `capped, 5 rounds`: what `gymtimer history` shows.
    public var description: String {
        let counted = rounds == 1 ? "1 round" : "\(rounds) rounds"
        if capped { return "capped, \(counted)" }
        guard let time else { return counted }
        let seconds = Int(time.nanoseconds / 1_000_000_000)
        let mm = seconds / 60, ss = seconds % 60
        return "\(mm):\(ss < 10 ? "0" : "")\(ss), \(counted)"
    }
}
