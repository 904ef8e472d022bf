import GymTimerCore
import GymTimerFleet

/// Whom a page's live updates are for. The coach sees athletes as the roster names them; a guest
/// (a page not signed in while a PIN guards the console: the TV, a member's phone) sees each
/// athlete's display name only, and never a card, a roster id or a record's id.
public enum ConsoleAudience: Hashable, Sendable {
    case coach, guest

    /// What a guest's leaderboard shows of `entry`: a roster athlete's display name as the owner
    /// chose it (`PublicName`, sent by the collector), else their initial; `guest` for everyone
    /// else (a new card is nobody a guest needs to know of). `GymScores.Entry.displayed`, without
    /// the `shown` a page never needs.
    public static func guestEntry(_ entry: GymScores.Entry) -> GymScores.Entry {
        var shown = entry.displayed
        shown.shown = nil
        return shown
    }

    /// `tile` as a guest's page gets it: no card of the athlete on the station.
    public static func guestTile(_ tile: ConsoleTile) -> ConsoleTile {
        var shown = tile
        shown.athlete = nil
        return shown
    }
}
