/// A point on the kiosk's monotonic timeline, counted in nanoseconds from an origin the runtime picks.
///
/// The core never reads a clock: every transition is handed the current `Moment`, so the same
/// events at the same moments always give the same states and effects.
public struct Moment: Comparable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Nanoseconds since the runtime's origin.
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The moment `duration` after the origin.
    public init(_ duration: Duration) { self.nanoseconds = duration.nanoseconds }

    public static let origin = Moment(nanoseconds: 0)

    /// Time since the origin.
    public var sinceOrigin: Duration { .nanoseconds(nanoseconds) }

    public static func < (a: Moment, b: Moment) -> Bool { a.nanoseconds < b.nanoseconds }
    // Saturating, never trapping: a moment or duration built from a hostile value (a network
    // message, a stored file) ends at the end of the timeline instead of stopping the kiosk.
    public static func + (a: Moment, d: Duration) -> Moment { Moment(nanoseconds: saturating(a.nanoseconds, plus: d.nanoseconds)) }
    public static func - (a: Moment, d: Duration) -> Moment { Moment(nanoseconds: saturating(a.nanoseconds, minus: d.nanoseconds)) }
    public static func - (a: Moment, b: Moment) -> Duration { .nanoseconds(saturating(a.nanoseconds, minus: b.nanoseconds)) }

    static func saturating(_ a: Int64, plus b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    static func saturating(_ a: Int64, minus b: Int64) -> Int64 {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? (b < 0 ? .max : .min) : difference
    }

    public var description: String { "\(sinceOrigin)" }
}

extension Duration {
    /// The duration in whole nanoseconds (truncated toward zero); exact for every duration the
    /// kiosk uses, saturated (never trapping) beyond ±292 years.
    public var nanoseconds: Int64 {
        let nanoseconds = attoseconds / 1_000_000_000
        return Int64(exactly: nanoseconds) ?? (nanoseconds > 0 ? .max : .min)
    }
}

extension Moment {
    /// Whether this moment is within `window` of `other`, computed without any arithmetic that
    /// could trap (for moments read back from storage).
    public func isWithin(_ window: Duration, of other: Moment) -> Bool {
        let (difference, overflow) = nanoseconds.subtractingReportingOverflow(other.nanoseconds)
        return !overflow && window >= .zero && difference.magnitude <= UInt64(window.nanoseconds)
    }
}
