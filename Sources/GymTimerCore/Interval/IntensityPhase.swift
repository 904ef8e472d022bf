/// Which half of an interval set is running: the easy phase or the hard one.
public enum IntensityPhase: String, Hashable, Sendable, Codable, CaseIterable {
    case low
    case high

    /// The other phase of the set.
    public var other: IntensityPhase { self == .low ? .high : .low }
}
