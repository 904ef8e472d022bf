/// The `[[programs]]` of the config and the one `program = NAME` selects at start-up.
public struct ProgramSettings: Hashable, Sendable, Codable {
    /// In menu order; a config that lists programs replaces the built-in ones.
    public var programs: [Program]
    /// The name of the program selected at start-up.
    public var programName: String

    public init(programs: [Program] = Program.builtIns, programName: String? = nil) {
        self.programs = programs.isEmpty ? Program.builtIns : programs
        self.programName = programName ?? self.programs[0].name
    }

    /// The index of `programName`, or 0 for a hand-built value that lacks it.
    public var selectedIndex: Int { programs.firstIndex { $0.name == programName } ?? 0 }
}
