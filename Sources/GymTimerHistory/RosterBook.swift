import GymTimerCore

/// What the roster's commands do to a roster, wherever it is kept: one gym's SQLite file
/// (`AthleteRoster`) or a chain's PostgreSQL (`PostgresRoster`, GymTimerCentral). So
/// `gymtimer athletes` and `gymtimer-central athletes` are one set of commands
/// (GymTimerRosterCommands), with each store's own refusals.
public protocol RosterBook {
    /// Where the roster is, as the commands' lines name it (a path, or a URL without its password).
    var place: String { get }
    /// Every athlete, by name.
    func athletes() throws -> [RosterAthlete]
    /// A new athlete with their card; a card already someone's, or a name taken, is refused.
    func add(name: String, card: CardID, shortName: String?) throws -> RosterAthlete
    /// One more card for `name`; a card already someone else's is refused.
    func addCard(_ card: CardID, to name: String) throws -> RosterAthlete
    /// A new name and/or short name for `name`.
    func rename(_ name: String, to newName: String?, shortName: String?) throws -> RosterAthlete
    /// How the signed-out world names `name` from now on.
    func setPublicName(_ name: String, to choice: PublicName) throws -> RosterAthlete
    /// Forgets `name`: who they were, and how many workouts of their cards were deleted.
    func forgetAthlete(_ name: String) throws -> (athlete: RosterAthlete, workouts: Int)
}

extension RosterBook {
    /// Each card's athlete's name, for tables that show who trained (`history`); empty when the
    /// roster cannot be read (a station's own history has none).
    public func namesByCard() -> [CardID: String] {
        var names: [CardID: String] = [:]
        for athlete in (try? athletes()) ?? [] {
            for card in athlete.cards { names[card] = athlete.name }
        }
        return names
    }
}

extension AthleteRoster: RosterBook {
    public var place: String { path }

    public func forgetAthlete(_ name: String) throws -> (athlete: RosterAthlete, workouts: Int) {
        let forgotten = try forget(name)
        return (forgotten.athlete, forgotten.workouts)
    }
}
