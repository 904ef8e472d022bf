import GymTimerCore
import GymTimerRuntime
import GymTimerDrivers

/// What the journal holds, all of it changing together: the kiosk's progress, the records it
/// produced that have not reached the history yet, the presses still down, and when it was
/// saved. `Pending` is the history's record type (see `PendingHistory`). `KioskStore` rewrites
/// the journal when anything but `savedAt` changed, not as time passes.
///
/// Format 2 (`"format": 2`) holds the progress (`KioskProgress`), not the config; format 1, with
/// no `format` key (releases up to this one), held the whole `Kiosk`, config included, and is
/// still read. Decoding reads what it can: a running state that no longer decodes is nil, a
/// waiting record that no longer decodes is counted (and the file kept by `KioskStore`), and
/// the rest is kept; fields a later release adds are optional, fields it drops read as absent.
public struct StoredKiosk<Pending: Codable & Hashable & Sendable>: Codable, Equatable, Sendable {
    /// The format this release writes.
    public static var currentFormat: Int { 2 }

    /// The kiosk's progress; nil when there was none, or the journal's could not be read.
    public var progress: KioskProgress?
    /// The moment of the save (wall-anchored on the kiosk, virtual in the simulator).
    public var savedAt: Moment
    /// Records received but not yet in the history database, oldest first.
    public var pending: [Pending]
    /// Button presses accepted and still down, by line name.
    public var held: [String: HeldPress]
    /// Whether the run that saved it ended cleanly (the simulator's `end`), rather than being killed.
    public var ended: Bool
    /// Where the saving run's time 0 lay on the kiosk's timeline (the simulator's runs after a
    /// clean end go on from where the last one ended; zero for the kiosk itself).
    public var runOrigin: Moment
    /// The clocks at the save (boot, time since boot, synchronised), for `ClockTrust`; nil in
    /// the scripted simulator (virtual time) and in journals of earlier releases.
    public var clock: ClockReading?
    /// A save still waiting for the clock to synchronise (`HeldForClock`); nil when none (and in
    /// journals of earlier releases).
    public var heldForClock: HeldForClock?
    /// As read: the journal's format (1 for the unversioned format of earlier releases).
    public private(set) var format = Self.currentFormat
    /// As read: whether a running state was stored but could not be read (another version's, or damaged).
    public private(set) var progressUnreadable = false
    /// As read: how many waiting records could not be read (a later release's record format).
    public private(set) var unreadablePending = 0

    public init(
        progress: KioskProgress?, savedAt: Moment, pending: [Pending] = [], held: [String: HeldPress] = [:],
        ended: Bool = false, runOrigin: Moment = .origin, clock: ClockReading? = nil, heldForClock: HeldForClock? = nil
    ) {
        self.heldForClock = heldForClock
        self.clock = clock
        self.runOrigin = runOrigin
        self.progress = progress
        self.savedAt = savedAt
        self.pending = pending
        self.held = held
        self.ended = ended
    }

    /// The snapshot of `kiosk` (its progress).
    public init(
        kiosk: Kiosk, savedAt: Moment, pending: [Pending] = [], held: [String: HeldPress] = [:], ended: Bool = false,
        runOrigin: Moment = .origin, clock: ClockReading? = nil, heldForClock: HeldForClock? = nil
    ) {
        self.init(
            progress: KioskProgress(kiosk), savedAt: savedAt, pending: pending, held: held, ended: ended, runOrigin: runOrigin,
            clock: clock, heldForClock: heldForClock)
    }

    private enum CodingKeys: String, CodingKey { case format, progress, kiosk, savedAt, pending, held, ended, runOrigin, clock, heldForClock }

    /// One waiting record, or nil when it does not decode.
    private struct Lenient: Decodable {
        var value: Pending?
        init(from decoder: any Decoder) throws { value = try? Pending(from: decoder) }
    }

    /// Reads what it can (see the type's comment); throws only for what is not a journal's JSON at all.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = (try? container.decodeIfPresent(Int.self, forKey: .format)) ?? 1
        if !container.contains(.pending) {
            pending = []
        } else if let lenient = try? container.decode([Lenient].self, forKey: .pending) {
            pending = lenient.compactMap(\.value)
            unreadablePending = lenient.count - pending.count
        } else {
            // Not a list this release can read: at least one record it cannot see.
            pending = []
            unreadablePending = 1
        }
        let saved = try? container.decodeIfPresent(Moment.self, forKey: .savedAt)
        savedAt = saved ?? .origin
        held = (try? container.decodeIfPresent([String: HeldPress].self, forKey: .held)) ?? [:]
        ended = (try? container.decodeIfPresent(Bool.self, forKey: .ended)) ?? false
        runOrigin = (try? container.decodeIfPresent(Moment.self, forKey: .runOrigin)) ?? .origin
        clock = try? container.decodeIfPresent(ClockReading.self, forKey: .clock)
        heldForClock = try? container.decodeIfPresent(HeldForClock.self, forKey: .heldForClock)
        let key: CodingKeys = format >= 2 ? .progress : .kiosk
        guard container.contains(key), (try? container.decodeNil(forKey: key)) != true else { return }
        // Without its save time a running state cannot be placed: dropped, the records kept.
        progress = saved == nil ? nil : format >= 2
            ? try? container.decode(KioskProgress.self, forKey: .progress)
            : (try? container.decode(Kiosk.self, forKey: .kiosk)).map(KioskProgress.init)
        progressUnreadable = progress == nil
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.currentFormat, forKey: .format)
        try container.encodeIfPresent(progress, forKey: .progress)
        try container.encode(savedAt, forKey: .savedAt)
        try container.encode(pending, forKey: .pending)
        try container.encode(held, forKey: .held)
        try container.encode(ended, forKey: .ended)
        try container.encode(runOrigin, forKey: .runOrigin)
        try container.encodeIfPresent(clock, forKey: .clock)
        try container.encodeIfPresent(heldForClock, forKey: .heldForClock)
    }

    /// Whether its own moments are ones the kiosk can compute with: the save and the run's
    /// origin within ±100 years of the timeline's origin, held presses near the save. (The
    /// progress is checked against the config's settings by `KioskRestore`.)
    public var isPlausible: Bool {
        let limit = Int64(100 * 365 * 86_400) * 1_000_000_000
        for moment in [savedAt, runOrigin] + [heldForClock?.savedAt].compactMap({ $0 }) where moment.nanoseconds < -limit || moment.nanoseconds > limit { return false }
        return held.values.compactMap(\.holdPendingSince).allSatisfy { $0.isWithin(KioskRestore.window, of: savedAt) }
    }

    /// What a new run starts from after a clean end: the progress if it is idle with no workout
    /// under way (its knob settings carried), else a fresh kiosk; nothing tied to the old timeline.
    public var restartingIdle: StoredKiosk {
        StoredKiosk(progress: progress?.idleCarriedOver, savedAt: savedAt, pending: pending, runOrigin: savedAt)
    }
}
