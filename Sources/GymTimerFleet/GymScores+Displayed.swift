import GymTimerCore

/// A leaderboard entry as anyone may see it, whoever they are: what a guest's page gets and
/// what the chain's leaderboard carries (`C/all/gym/scores`, read by the chain's console's
/// account), so that no account past a gym's own coach learns a full name, a roster id or a
/// record's id (docs/security.md).
extension GymScores.Entry {
    /// A roster athlete by the display name the owner chose (`shown`, sent by the collector,
    /// else the first name and the last name's initial); everyone else (a new card, a guest)
    /// `guest`; no roster id and no record id. `shown` keeps the display name, so that an entry
    /// displayed again stays the same.
    public var displayed: GymScores.Entry {
        var entry = self
        let display = shown ?? (athleteID == nil ? nil : PublicName.initialled(athlete))
        entry.athlete = display ?? GymScores.guest
        entry.shown = display
        entry.athleteID = nil
        entry.id = ""
        return entry
    }
}
