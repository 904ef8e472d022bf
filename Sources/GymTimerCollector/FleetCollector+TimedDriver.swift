import GymTimerCore

/// The collector hosted by someone else's loop (virtual time: a test's or the simulator's, over
/// an in-memory broker, where there is no socket to poll and the twin's deliveries are taken at
/// the connection's deadlines): `run` is its own real-time loop instead.
extension FleetCollector: TimedDriver {
    public var nextDeadline: Moment? { min(connectionDeadline, sidesDeadline ?? connectionDeadline) }

    public func fire(at now: Moment) { fireConnection(at: now) }
}
