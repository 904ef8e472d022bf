/// How a station treats the athletes who tap in (`[athletes]`).
public struct AthleteSettings: Hashable, Sendable, Codable {
    /// How long an idle, untouched station keeps the athlete who tapped in.
    public var idleTimeout: Duration
    /// The file holding the gym's card key (`card_key`), which turns each tapped UID into the
    /// card's pseudonym; nil: `card.key` in the station's data directory, made at its first start.
    /// Every station and server of a gym must share one key (docs/security.md).
    public var cardKeyPath: String?

    /// The range `[athletes] idle_minutes` may take.
    public static let idleMinutes: ClosedRange<Int> = 1...240

    public init(idleTimeout: Duration = .seconds(10 * 60), cardKeyPath: String? = nil) {
        self.idleTimeout = idleTimeout
        self.cardKeyPath = cardKeyPath
    }
}
