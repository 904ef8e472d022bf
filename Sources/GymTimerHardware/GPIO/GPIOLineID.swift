/// How a GPIO line is named when it is requested: by the name the chip gives it (`GPIO17` on a
/// Raspberry Pi, as `gpioinfo` lists them) or by its offset on the chip.
public enum GPIOLineID: Hashable, Sendable, CustomStringConvertible {
    case name(String)
    case offset(Int)

    public var description: String {
        switch self {
        case .name(let name): return name
        case .offset(let offset): return "line \(offset)"
        }
    }
}
