import Foundation

/// Seconds on the wire (a Unix instant, a duration): written by `FleetJSONEncoder` as a number
/// with exactly three decimals (`1767225600.250`, `-0.100`), as the fleet has always written
/// them, so a payload's bytes do not depend on how a Double prints. Not finite: `null`.
public struct WireSeconds: Hashable, Sendable, Encodable {
    public var value: Double

    public init(_ value: Double) {
        self.value = value
    }

    /// The number as written (`%.3f`), or nil when it is not finite.
    public var text: String? { value.isFinite ? String(format: "%.3f", value) : nil }

    /// For any other encoder: the value rounded to milliseconds (`FleetJSONEncoder` writes `text`).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if value.isFinite {
            try container.encode((value * 1000).rounded() / 1000)
        } else {
            try container.encodeNil()
        }
    }
}
