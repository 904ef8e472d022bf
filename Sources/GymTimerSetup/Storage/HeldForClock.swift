import GymTimerCore
import GymTimerRuntime

/// A save that a restore could not place for want of a trusted clock (`ClockTrust.unknown`):
/// kept by `KioskStore` and in the journal (`StoredKiosk.heldForClock`) until the clock
/// synchronises, so the run resumes where the clock says even after a restart in between.
public struct HeldForClock: Codable, Hashable, Sendable {
    /// The progress as saved, on the saving process's wall-clock timeline.
    public var progress: KioskProgress?
    public var savedAt: Moment
    /// The clocks at that save (`ClockTrust.decide` takes them again once the clock is trusted).
    public var clock: ClockReading?
    /// The progress the kiosk showed while it held the run, on the timeline of the process
    /// that held it: a kiosk that no longer has it was changed by the lifter, and is theirs.
    public var shown: KioskProgress?

    public init(progress: KioskProgress?, savedAt: Moment, clock: ClockReading?, shown: KioskProgress? = nil) {
        self.progress = progress
        self.savedAt = savedAt
        self.clock = clock
        self.shown = shown
    }
}
