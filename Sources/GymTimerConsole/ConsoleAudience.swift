import GymTimerFleet

/// Whom a page's live updates are for. The coach sees athletes as the roster names them; a guest
/// (a page not signed in while a PIN guards the console: the TV, a member's phone) sees each
/// athlete's display name only, and never a card, a roster id or a record's id.
public enum ConsoleAudience: Hashable, Sendable {
    case coach, guest

    /// What a guest's leaderboard shows of `entry`: a roster athlete's display name, else `guest`
    /// (a new card is nobody a guest needs to know of).
    public static func guestEntry(_ entry: GymScores.Entry) -> GymScores.Entry {
        var shown = entry
        shown.athlete = entry.athleteID == nil ? GymScores.guest : displayName(entry.athlete)
        shown.athleteID = nil
        shown.id = ""
        return shown
    }

    /// A roster name as the signed-out world sees it: the first name and the last name's initial
    /// (`Anna Berg` → `Anna B.`, `Anna Maria Berg` → `Anna B.`); a name of one word as it is.
    public static func displayName(_ name: String) -> String {
        let words = name.split(whereSeparator: \.isWhitespace)
        guard let first = words.first else { return GymScores.guest }
        guard words.count > 1, let initial = words.last?.first else { return String(first) }
        return "\(first) \(initial)."
    }

    /// `tile` as a guest's page gets it: no card of the athlete on the station.
    public static func guestTile(_ tile: ConsoleTile) -> ConsoleTile {
        var shown = tile
        shown.athlete = nil
        return shown
    }
}
