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
    public static func + (a: Moment, d: Duration) -> Moment { Moment(nanoseconds: a.nanoseconds + d.nanoseconds) }
    public static func - (a: Moment, d: Duration) -> Moment { Moment(nanoseconds: a.nanoseconds - d.nanoseconds) }
    public static func - (a: Moment, b: Moment) -> Duration { .nanoseconds(a.nanoseconds - b.nanoseconds) }

    public var description: String { "\(sinceOrigin)" }
}

extension Duration {
    /// The duration in whole nanoseconds (truncated toward zero); exact for every duration the kiosk uses.
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
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
