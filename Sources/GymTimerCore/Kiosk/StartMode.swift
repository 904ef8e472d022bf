/// The mode the kiosk is in at start-up (`mode` in the config).
public enum StartMode: String, Hashable, Sendable, Codable, CaseIterable {
    case rest
    case interval
    case workout
    case program
}
