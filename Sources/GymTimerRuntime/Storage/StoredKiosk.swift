import GymTimerCore
import GymTimerDrivers
import GymTimerHistory

/// What the journal holds, all of it changing together: the kiosk's running state, the records
/// it produced that have not reached the history yet, the presses still down, and when it was
/// saved. Two snapshots are the same when everything but `savedAt` is, so the journal is
/// rewritten on changes, not as time passes.
public struct StoredKiosk: Codable, Equatable, Sendable {
    /// The running state; nil when the journal's could not be read (another version's, or
    /// damaged), so the waiting records beside it are still kept.
    public var kiosk: Kiosk?
    /// The moment of the save (wall-anchored on the kiosk, virtual in the simulator).
    public var savedAt: Moment
    /// Records received but not yet in the history database, oldest first.
    public var pending: [StoredWorkout]
    /// Button presses accepted and still down, by line name.
    public var held: [String: HeldPress]
    /// Whether the run that saved it ended cleanly (the simulator's `end`), rather than being killed.
    public var ended: Bool
    /// Where the saving run's time 0 lay on the kiosk's timeline (the simulator's runs after a
    /// clean end go on from where the last one ended; zero for the kiosk itself).
    public var runOrigin: Moment

    public init(
        kiosk: Kiosk?, savedAt: Moment, pending: [StoredWorkout] = [], held: [String: HeldPress] = [:], ended: Bool = false,
        runOrigin: Moment = .origin
    ) {
        self.runOrigin = runOrigin
        self.kiosk = kiosk
        self.savedAt = savedAt
        self.pending = pending
        self.held = held
        self.ended = ended
    }

    /// Reads what it can: only the save time is required; a kiosk that does not decode is
    /// nil and missing fields take their defaults, so no waiting record is lost to a format change.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kiosk = try? container.decodeIfPresent(Kiosk.self, forKey: .kiosk)
        savedAt = try container.decode(Moment.self, forKey: .savedAt)
        pending = try container.decodeIfPresent([StoredWorkout].self, forKey: .pending) ?? []
        held = (try? container.decodeIfPresent([String: HeldPress].self, forKey: .held)) ?? [:]
        ended = (try? container.decodeIfPresent(Bool.self, forKey: .ended)) ?? false
        runOrigin = (try? container.decodeIfPresent(Moment.self, forKey: .runOrigin)) ?? .origin
    }

    public static func == (a: StoredKiosk, b: StoredKiosk) -> Bool {
        a.kiosk == b.kiosk && a.pending == b.pending && a.held == b.held && a.ended == b.ended && a.runOrigin == b.runOrigin
    }

    /// Whether its own moments are ones the kiosk can compute with: the save and the run's
    /// origin within ±100 years of the timeline's origin, held presses near the save. (The kiosk is checked against the config's settings
    /// by `KioskRestore`.)
    public var isPlausible: Bool {
        let limit = Int64(100 * 365 * 86_400) * 1_000_000_000
        for moment in [savedAt, runOrigin] where moment.nanoseconds < -limit || moment.nanoseconds > limit { return false }
        return held.values.compactMap(\.holdPendingSince).allSatisfy { $0.isWithin(KioskRestore.window, of: savedAt) }
    }

    /// What a new run starts from after a clean end: the kiosk if it is idle with no workout
    /// under way (its knob settings carried), else a fresh one; nothing tied to the old timeline.
    public var restartingIdle: StoredKiosk {
        StoredKiosk(kiosk: kiosk?.idleCarriedOver, savedAt: savedAt, pending: pending, runOrigin: savedAt)
    }
}
