import GymTimerCore
import GymTimerRuntime

/// THE place a restart decides how far to trust the clock it resumes on (issue #24): whether
/// the time that passed while the kiosk was down is known, and so whether stored deadlines may
/// be acted on as they stand.
///
/// * Same boot (the kernel's boot id unchanged): the time that passed is CLOCK_BOOTTIME's,
///   which no wall-clock step moves; the stored moments are moved by however far the wall
///   clock stepped since the save (`.sameBoot`).
/// * Another boot, the wall clock synchronised now (adjtimex, as `selftest` reads it) and at
///   the save: the stored moments stand as saved (`.wallClock`).
/// * Another boot and a clock not known to be right (a Pi without a clock battery starts where
///   its clock was last saved, and steps when NTP synchronises): the time that passed is
///   unknown, so nothing is guessed. The kiosk resumes as it was at the save: a run on the
///   program engine paused (start resumes it), a rest with what it had left (`.unknown`).
public enum ClockTrust: Equatable, Sendable {
    case sameBoot(shift: Duration)
    case wallClock
    case unknown(shift: Duration)

    /// The decision for a journal saved at `savedAt` with `saved` (nil: a journal of a release
    /// before readings were kept) and restored at `now` with `current`; both moments are on
    /// the wall-anchored timeline of their own process.
    public static func decide(saved: ClockReading?, savedAt: Moment, current: ClockReading, now: Moment) -> ClockTrust {
        if let saved, !saved.bootID.isEmpty, saved.bootID == current.bootID, current.sinceBoot >= saved.sinceBoot {
            let passed = current.sinceBoot - saved.sinceBoot
            return .sameBoot(shift: (now - savedAt) - passed)
        }
        if current.synchronised && (saved?.synchronised ?? true) { return .wallClock }
        return .unknown(shift: now - savedAt)
    }

    /// Whether a run held on `.unknown` may still resume once the clock synchronises
    /// (`KioskStore.resumeOnSync`): only when the save's own clock was not known to be wrong
    /// (a save on an unsynchronised clock names no true instant, now or later).
    public static func mayResumeOnSync(saved: ClockReading?) -> Bool {
        saved?.synchronised ?? true
    }

    /// How far every stored moment moves onto the new timeline.
    public var shift: Duration {
        switch self {
        case .sameBoot(let shift), .unknown(let shift): shift
        case .wallClock: .zero
        }
    }

    /// One line for the log when the restore could not take the wall clock as it is, else nil.
    public var note: String? {
        switch self {
        case .sameBoot(let shift) where abs(shift.nanoseconds) >= 1_000_000_000:
            "clock: the wall clock moved \(Self.seconds(shift)) since the save; resumed on the monotonic clock (same boot)"
        case .sameBoot, .wallClock: nil
        case .unknown:
            "clock: not synchronised after a reboot, the time that passed is unknown: resumed as it was at the power cut (a run paused); waiting for the clock"
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let tenths = duration.nanoseconds / 100_000_000
        return "\(tenths / 10).\(abs(tenths % 10)) s"
    }
}
