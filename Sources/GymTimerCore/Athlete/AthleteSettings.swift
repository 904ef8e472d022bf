/// How a station treats the athletes who tap in (`[athletes]` in the config).
public struct AthleteSettings: Hashable, Sendable, Codable {
    /// How long an idle, untouched station keeps the athlete who tapped in.
    public var idleTimeout: Duration

    /// The range `[athletes] idle_minutes` may take.
    public static let idleMinutes: ClosedRange<Int> = 1...240

    public init(idleTimeout: Duration = .seconds(10 * 60)) {
        self.idleTimeout = idleTimeout
    }
}
