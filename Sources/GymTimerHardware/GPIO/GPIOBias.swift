/// The internal resistor a requested input line gets. Buttons wired to ground need `pullUp`.
public enum GPIOBias: Hashable, Sendable {
    case pullUp
    case pullDown
    /// No resistor: the board has its own.
    case disabled
}
