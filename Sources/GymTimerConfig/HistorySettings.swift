/// The `[history]` section of the config: where the workout history is kept. The running-state
/// file that lets a restart resume lives in the same directory.
public struct HistorySettings: Hashable, Sendable, Codable {
    /// The SQLite database of recorded workouts.
    public var path: String

    public init(path: String = "/var/lib/gymtimer/history.sqlite") {
        self.path = path
    }
}
