import Foundation
import GymTimerFleet
import GymTimerConfig

/// Which stations a coach's command goes to: every station (the `all` topic) or a checked
/// list of names. An empty list (`--stations ""`, `",,"`) is an error, never "all": a typo must
/// not start the whole gym.
public enum FleetTarget: Hashable, Sendable {
    case all
    case stations([String])

    /// Why a station list was refused, in one line.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// `list` as the coach typed it (comma-separated), checked: names as a station's config
    /// allows them, at least one, each once.
    public static func named(_ list: String) -> Result<FleetTarget, Problem> {
        let names = list.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let given = names.filter { !$0.isEmpty }
        guard !given.isEmpty else {
            return .failure(Problem(description: "--stations names no station: give names (rack-1,rack-2) or --all"))
        }
        if names.count != given.count {
            return .failure(Problem(description: "--stations \(FleetCell.text(list, width: 40)): an empty name between commas"))
        }
        if let bad = given.first(where: { !FleetSettings.isValidStation($0) }) {
            return .failure(Problem(description: "--stations: \(FleetCell.quoted(bad, width: 40)) \(FleetSettings.stationRule)"))
        }
        var seen: Set<String> = []
        if let twice = given.first(where: { !seen.insert($0).inserted }) {
            return .failure(Problem(description: "--stations names \(twice) twice"))
        }
        return .success(.stations(given))
    }

    /// The topics the command is published on.
    public func topics(prefix: String) -> [String] {
        switch self {
        case .all: [FleetTopics(prefix: prefix, station: FleetSettings.everyStation).fleetCommand]
        case .stations(let names): names.map { FleetTopics(prefix: prefix, station: $0).command }
        }
    }
}
