import GymTimerCore

/// The job an input line does. Its raw value is the name the line is requested and reported by
/// (`InputEdge.line`, `DigitalInput.name`), written here once for the hardware, the simulator
/// and the self-test alike.
public enum InputRole: String, CaseIterable, Hashable, Sendable, Codable {
    case start
    case dismiss
    /// The knob's two quadrature contacts.
    case encoderA = "encoder-a"
    case encoderB = "encoder-b"
    /// The knob's push switch, when fitted: a second start button.
    case encoderSwitch = "encoder-switch"

    /// The name of the line playing this role.
    public var lineName: String { rawValue }

    /// The role of the line named `lineName`, or nil for a line that plays none.
    public init?(lineName: String) { self.init(rawValue: lineName) }

    /// The kiosk button this line is, or nil for the knob's contacts.
    public var button: ControlButton? {
        switch self {
        case .start, .encoderSwitch: return .start
        case .dismiss: return .dismiss
        case .encoderA, .encoderB: return nil
        }
    }

    /// The button lines (every role but the knob's contacts).
    public static let buttons: [InputRole] = allCases.filter { $0.button != nil }
}
