import GymTimerCore

/// What the state file holds: the kiosk's running state and when it was saved. Two snapshots
/// are the same when the kiosk state is, so the file is rewritten on changes, not as time passes.
public struct StoredKiosk: Codable, Equatable, Sendable {
    public var kiosk: Kiosk
    /// The moment of the save (wall-anchored on the kiosk, virtual in the simulator).
    public var savedAt: Moment

    public init(kiosk: Kiosk, savedAt: Moment) {
        self.kiosk = kiosk
        self.savedAt = savedAt
    }

    public static func == (a: StoredKiosk, b: StoredKiosk) -> Bool { a.kiosk == b.kiosk }
}
