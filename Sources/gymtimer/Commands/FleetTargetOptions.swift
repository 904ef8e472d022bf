import ArgumentParser
import GymTimerFleetCommands

/// Which stations a coach's command goes to: `--stations a,b` (checked names, each seen on the
/// broker) or `--all` (the default).
struct FleetTargetOptions: ParsableArguments {
    @Option(name: .long, help: "Only these stations (comma-separated names); default: all.")
    var stations: String?

    @Flag(name: .long, help: "Every station (the default).")
    var all = false

    /// The stations asked for, checked; a one-line usage error otherwise.
    func parsed() throws -> FleetTarget {
        if stations != nil && all { throw CLIError.usage("give --stations or --all, not both") }
        guard let stations else { return .all }
        switch FleetTarget.named(stations) {
        case .success(let target): return target
        case .failure(let problem): throw CLIError.usage("\(problem)")
        }
    }

    /// What became of the command on each station, for the confirmation line.
    func describe(_ target: FleetTarget, _ delivery: FleetConsole.Delivery, done: String) -> String {
        if case .all = target, delivery.online.isEmpty { return "all stations: none is online now" }
        return delivery.answers.summary(done: done)
    }

    /// Whether the command was done everywhere it was for: every station asked did it, and no
    /// station named with `--stations` was offline (with `--all`, an offline station a retained
    /// `offline` still names is reported, not a failure: it may be long gone).
    func succeeded(_ target: FleetTarget, _ delivery: FleetConsole.Delivery) -> Bool {
        let answers = delivery.answers
        let everyAskedDidIt = answers.refused.isEmpty && answers.silent.isEmpty
        switch target {
        case .all: return everyAskedDidIt && !delivery.online.isEmpty
        case .stations: return everyAskedDidIt && delivery.offline.isEmpty
        }
    }
}
