/// How the signed-out world (the leaderboard on a member's phone or the gym's TV, anyone on the
/// Wi-Fi) names an athlete, as the owner sets it for each (`gymtimer athletes public NAME …`):
/// never their full name, never a card.
public enum PublicName: String, CaseIterable, Hashable, Sendable, Codable {
    /// The first name and the last name's initial (`Anna Berg` → `Anna B.`): the default.
    case initial
    /// Their short name, as the station's display shows it (`AnnA`).
    case short
    /// `guest`: a member who opts out is shown as nobody in particular.
    case guest

    /// What a guest's name for every result of nobody's is.
    public static let guestName = "guest"

    /// What this choice shows of the athlete `name` whose short name is `shortName`.
    public func shown(name: String, shortName: String) -> String {
        switch self {
        case .initial: Self.initialled(name)
        case .short: shortName.isEmpty ? Self.initialled(name) : shortName
        case .guest: Self.guestName
        }
    }

    /// `Anna Berg` → `Anna B.`, `Anna Maria Berg` → `Anna B.`; a name of one word as it is.
    public static func initialled(_ name: String) -> String {
        let words = name.split(whereSeparator: \.isWhitespace)
        guard let first = words.first else { return guestName }
        guard words.count > 1, let initial = words.last?.first else { return String(first) }
        return "\(first) \(initial)."
    }
}
