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

    /// The score `description` wrote (what the history keeps as text), or nil for any other text.
    public init?(text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0.drop { $0 == " " }) }
        guard (1...2).contains(parts.count), let counted = parts.last else { return nil }
        let words = counted.split(separator: " ")
        guard words.count == 2, let rounds = Int(words[0]), rounds >= 0, words[1] == (rounds == 1 ? "round" : "rounds") else { return nil }
        self.init(rounds: rounds)
        guard parts.count == 2 else { return }
        if parts[0] == "capped" {
            capped = true
            return
        }
        let clock = parts[0].split(separator: ":")
        guard clock.count == 2, clock[1].count == 2, let minutes = Int(clock[0]), let seconds = Int(clock[1]),
              (0...99_999).contains(minutes), (0..<60).contains(seconds) else { return nil }
        time = .seconds(minutes * 60 + seconds)
    }

    /// Whether this score beats `other` of the same program: a finish under the cap beats no
    /// finish, a faster finish a slower one; otherwise more rounds beat fewer.
    public func beats(_ other: ProgramScore) -> Bool {
        switch (time, other.time) {
        case (let mine?, let theirs?): return mine < theirs
        case (_?, nil): return true
        case (nil, _?): return false
        case (nil, nil): return rounds > other.rounds
        }
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
