/// One program (programs.md): a named workout format from `[[programs]]` or the built-ins, as
/// the coach writes it on the whiteboard. It is only data; `ProgramPlan(program:…)` turns it into
/// the timed intervals and cues the one program engine (`ProgramRun`) runs.
public struct Program: Hashable, Sendable, Codable {
    /// The format and its numbers, in whole seconds.
    public enum Format: Hashable, Sendable, Codable {
        /// `rounds` × (work, rest), no rest after the last round (Tabata: 8 × 20/10).
        case intervals(rounds: Int, workSeconds: Int, restSeconds: Int)
        /// Every minute on the minute: `rounds` intervals of `everySeconds`, no rest.
        case emom(rounds: Int, everySeconds: Int)
        /// As many rounds as possible in `timeSeconds`.
        case amrap(timeSeconds: Int)
        /// A count-up until done, capped at `capSeconds` (0: no cap, the clock stops at 99:59).
        case forTime(capSeconds: Int)
    }

    /// How the history and the logs name it.
    public var name: String
    /// What the menu and idle show: up to 4 characters the display can draw.
    public var label: String
    public var leadInSeconds: Int
    public var format: Format

    public init(name: String, label: String, leadInSeconds: Int = 10, format: Format) {
        self.name = name
        self.label = label
        self.leadInSeconds = leadInSeconds
        self.format = format
    }

    /// The four programs a kiosk offers when the config has no `[[programs]]`.
    public static let builtIns: [Program] = [
        Program(name: "Tabata", label: "tAbA", format: .intervals(rounds: 8, workSeconds: 20, restSeconds: 10)),
        Program(name: "EMOM 10", label: "E 10", format: .emom(rounds: 10, everySeconds: 60)),
        Program(name: "AMRAP 12", label: "A 12", format: .amrap(timeSeconds: 720)),
        Program(name: "For Time", label: "Ft", format: .forTime(capSeconds: 900)),
    ]
}
