import GymTimerCore

/// The `[upgrade]` section of the config: when the upgrade agent (`gymtimer upgrade run`, run by
/// `gymtimer-upgrade.timer`) may install a newer package from the gym's source on its own: the
/// hours outside classes, `window = "02:00-05:00"` in local time (it may cross midnight).
/// Without it the station upgrades only when asked (Home Assistant's Install, `gymtimer fleet
/// upgrade`, the console). Either way only while nothing is under way (docs/upgrades.md).
public struct UpgradeSettings: Hashable, Sendable, Codable {
    /// The daily window for upgrades nobody asked for; nil: only requested ones.
    public var window: SleepWindow?

    public init(window: SleepWindow? = nil) {
        self.window = window
    }
}
