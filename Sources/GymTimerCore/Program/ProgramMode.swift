/// The kiosk's program mode (programs.md): idle shows the selected program's label, start runs it
/// on the program engine (`ProgramRun`), and the run says when to come back to idle.
///
/// Decisions where programs.md is silent: the knob in idle moves between the programs (like the
/// workout presets), without wrapping.
public struct ProgramMode: ProgramHost, Hashable, Sendable, Codable {
    /// The configured programs, then the class's program when it is not one of them.
    public private(set) var programs: [Program]
    /// A class's program that the config does not have (its definition sent by the coach):
    /// offered after the configured ones until the mode is left; nil when there is none.
    public private(set) var classProgram: Program?
    /// The kiosk's 3-2-1 beeps before each interval ends (`[interval] warning_seconds`).
    public let warningSeconds: Int
    /// The index in `programs` of the program a start runs.
    public private(set) var selected: Int
    /// The program running, paused or showing its result; nil in idle.
    public var run: ProgramRun?

    public init(settings: ProgramSettings, warningSeconds: Int) {
        programs = settings.programs.isEmpty ? Program.builtIns : settings.programs
        selected = min(settings.selectedIndex, programs.count - 1)
        self.warningSeconds = warningSeconds
    }

    public var program: Program { programs[selected] }

    /// How program `index` of `programs` is shown: its label.
    public static func label(of program: Program) -> DisplayContent { DisplayContent(text: program.label) }

    /// The same mode with program `index` selected (only changes anything in idle).
    public func selecting(program index: Int) -> ProgramMode {
        var copy = self
        if isIdle { copy.selected = min(max(index, 0), programs.count - 1) }
        return copy
    }

    /// The same mode, while idle, with `program` selected: the configured program with that
    /// definition when there is one, else `program` itself after the configured ones (taking
    /// the place of any earlier class's program).
    public func selecting(classProgram program: Program) -> ProgramMode {
        guard isIdle else { return self }
        var copy = self
        if classProgram != nil { copy.programs.removeLast() }
        copy.classProgram = nil
        if let index = copy.programs.firstIndex(of: program) {
            copy.selected = index
        } else {
            copy.programs.append(program)
            copy.classProgram = program
            copy.selected = copy.programs.count - 1
        }
        return copy
    }

    public func plan() -> ProgramPlan { ProgramPlan(program: program, warningSeconds: warningSeconds) }

    public func idleOutputs() -> [Effect] {
        [.display(Self.label(of: program)), .leds([.ready]), .buzzer(.off), .sound(nil)]
    }

    /// Moves between the programs, without wrapping.
    public mutating func turnInIdle(_ detents: Int) -> [Effect] {
        selected = min(max(selected + detents, 0), programs.count - 1)
        return [.display(Self.label(of: program))]
    }
}

extension ProgramMode {
    /// What the program is doing, for status lines: `idle`, `lead-in`, `round 3 of 8`, `5 rounds`,
    /// `paused`, `finished: 12:34, 3 rounds`.
    public var statusDetail: String {
        guard let run else { return "idle" }
        if run.isFinished { return "finished" }
        var parts: [String] = []
        if run.inLeadIn {
            parts.append("lead-in")
        } else if run.plannedRounds > 0 {
            parts.append("round \(run.round) of \(run.plannedRounds)")
        } else {
            parts.append(run.rounds == 1 ? "1 round" : "\(run.rounds) rounds")
        }
        if run.isPaused { parts.append("paused") }
        return parts.joined(separator: ", ")
    }
}
