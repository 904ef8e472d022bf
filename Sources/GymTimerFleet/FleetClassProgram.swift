import GymTimerCore

/// What a class runs on a station (`FleetCommand.classStart`): something the station has by
/// name, or a program's whole definition, which the station runs whether its config has it or
/// not (a program built in the console reaches every Pi without a TOML edit).
public enum FleetClassProgram: Hashable, Sendable {
    /// A mode (one of `FleetCommand.modes`) and, for workout and program, a preset or program
    /// by name (nil: the one already chosen).
    case named(mode: String, name: String?)
    /// A class program's definition (`Program+JSON`), checked as strictly as a config's.
    case defined(Program)

    /// How answers and logs name it: `program AMRAP 12`, `rest`.
    public var description: String {
        switch self {
        case .named(let mode, let name?): return "\(mode) \(name)"
        case .named(let mode, nil): return mode
        case .defined(let program): return "program \(program.name)"
        }
    }
}
