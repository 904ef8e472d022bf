/// The status LEDs on the kiosk's front panel, each named after the state it shows.
public enum StatusLED: String, CaseIterable, Hashable, Sendable, Codable {
    case ready, rest, alarm, low, high
}
