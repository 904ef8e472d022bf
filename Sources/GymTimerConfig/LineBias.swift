/// The internal resistor on the input lines (`hardware.bias`); buttons to ground need `pull-up`.
public enum LineBias: String, Hashable, Sendable, Codable, CaseIterable {
    case pullUp = "pull-up"
    case pullDown = "pull-down"
    case none
}
