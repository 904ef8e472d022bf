import GymTimerCore

/// A program's definition as the fleet writes it (`Program.parse(definition:)` reads it):
/// `name`, `label`, `kind`, then its numbers (`Program.numbers`, lead-in last), in that order.
public struct ProgramDefinition: Hashable, Sendable, Encodable {
    public var program: Program

    public init(_ program: Program) {
        self.program = program
    }

    public func encode(to encoder: Encoder) throws {
        var fields = encoder.container(keyedBy: FleetJSONKey.self)
        try fields.encode(program.name, forKey: FleetJSONKey("name"))
        try fields.encode(program.label, forKey: FleetJSONKey("label"))
        try fields.encode(program.kind.rawValue, forKey: FleetJSONKey("kind"))
        for (key, value) in program.numbers { try fields.encode(value, forKey: FleetJSONKey(key)) }
    }
}
