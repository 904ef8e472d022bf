/// The `[interval]` section of the config: a HIIT workout of `sets` sets, each a low and a high
/// phase of `phaseSeconds`, in whole seconds.
public struct IntervalSettings: Hashable, Sendable, Codable {
    /// The length of one phase; a set is two phases.
    public var phaseSeconds: Int
    public var sets: Int
    /// The phase each set begins with.
    public var startWith: IntensityPhase
    /// How long before a phase ends (other than the last of its set) the `warning` cue sounds (0: never).
    public var warningSeconds: Int
    /// How long before a set ends its `set-N` announcement starts (0: never).
    public var announceSeconds: Int

    public init(
        phaseSeconds: Int = 30, sets: Int = 8, startWith: IntensityPhase = .low,
        warningSeconds: Int = 3, announceSeconds: Int = 3
    ) {
        self.phaseSeconds = phaseSeconds
        self.sets = sets
        self.startWith = startWith
        self.warningSeconds = warningSeconds
        self.announceSeconds = announceSeconds
    }
}
