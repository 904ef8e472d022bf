/// The `[rest]` section of the config: the rest timer's durations and cues, in whole seconds.
public struct RestSettings: Hashable, Sendable, Codable {
    public var defaultSeconds: Int
    public var minSeconds: Int
    public var maxSeconds: Int
    public var stepSeconds: Int
    /// How many 1-second warning beeps end a rest (0: none).
    public var warningSeconds: Int
    /// How long an unanswered alarm sounds before it stops by itself.
    public var alarmTimeoutSeconds: Int

    public init(
        defaultSeconds: Int = 90, minSeconds: Int = 15, maxSeconds: Int = 300, stepSeconds: Int = 15,
        warningSeconds: Int = 3, alarmTimeoutSeconds: Int = 30
    ) {
        self.defaultSeconds = defaultSeconds
        self.minSeconds = minSeconds
        self.maxSeconds = maxSeconds
        self.stepSeconds = stepSeconds
        self.warningSeconds = warningSeconds
        self.alarmTimeoutSeconds = alarmTimeoutSeconds
    }

    /// `seconds` brought into `minSeconds...maxSeconds`.
    public func clamp(_ seconds: Int) -> Int { min(max(seconds, minSeconds), maxSeconds) }
}
