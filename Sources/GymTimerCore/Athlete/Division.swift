/// How a result was done: as written (`rx`) or scaled (lighter, fewer, easier). SugarWOD-style
/// leaderboards rank every Rx result above every Scaled one, and a personal record is kept per
/// division, so a scaled finish never beats an Rx best. A result whose division was never said
/// (a record from before divisions, a rest or interval workout) counts as Rx.
public enum Division: String, Hashable, Sendable, Codable, CaseIterable {
    case rx
    case scaled

    /// What the wall's four digits say when it is chosen: `rH` for Rx (a 7-segment X is the H
    /// shape; no digit draws an x) and `Sc` for Scaled.
    public var wallText: String {
        switch self {
        case .rx: "rH"
        case .scaled: "Sc"
        }
    }

    /// How people read it: `Rx`, `Scaled` (the history's tables, the console).
    public var title: String {
        switch self {
        case .rx: "Rx"
        case .scaled: "Scaled"
        }
    }

    /// The other one: what a press of dismiss in program idle switches to.
    public var toggled: Division { self == .rx ? .scaled : .rx }
}
