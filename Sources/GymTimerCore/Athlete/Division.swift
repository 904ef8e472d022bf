/// How a result was done: as written (`rx`) or scaled (lighter, fewer, easier). SugarWOD-style
/// leaderboards rank every Rx result above every Scaled one, and a personal record is kept per
/// division, so a scaled finish never beats an Rx best.
public enum Division: String, Hashable, Sendable, Codable, CaseIterable {
    case rx
    case scaled
}
