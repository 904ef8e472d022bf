import GymTimerHistory

/// The chain's roster behind the roster's commands (`gymtimer-central athletes`, the same
/// commands as one gym's `gymtimer athletes`).
extension PostgresRoster: RosterBook {
    public var place: String { database }

    public func forgetAthlete(_ name: String) throws -> (athlete: RosterAthlete, workouts: Int) {
        let forgotten = try forget(name)
        return (forgotten.athlete, forgotten.workouts)
    }
}
