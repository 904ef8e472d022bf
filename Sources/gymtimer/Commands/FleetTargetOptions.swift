import ArgumentParser
import GymTimerFleetLink

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

    /// Which stations the command reached, for the confirmation line.
    func describe(_ target: FleetTarget, _ delivery: FleetConsole.Delivery) -> String {
        var text: String
        switch target {
        case .all: text = delivery.online.isEmpty ? "all stations: none is online now" : "all stations: \(delivery.online.joined(separator: ", "))"
        case .stations(let names): text = names.joined(separator: ", ")
        }
        if !delivery.offline.isEmpty, case .stations = target {
            text += "; offline, will not get it: \(delivery.offline.joined(separator: ", "))"
        }
        return text
    }
}
