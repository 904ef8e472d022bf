import GymTimerCore

/// A button press that was accepted and is still down, as stored across a restart: when it was
/// accepted, while its hold (see `ButtonDebouncer`) has not been reported yet.
public struct HeldPress: Hashable, Sendable, Codable {
    public var holdPendingSince: Moment?

    public init(holdPendingSince: Moment?) { self.holdPendingSince = holdPendingSince }
}
