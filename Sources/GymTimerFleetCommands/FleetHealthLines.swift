import GymTimerFleet

/// The health section of `gymtimer fleet status`: after the stations' table, a heading and one
/// line per station that published its health (`StationHealth.line`: every figure, then its
/// flags in capitals), those without one said so. Nothing when no station published any.
public enum FleetHealthLines {
    public static func lines(_ stations: [FleetConsole.Station]) -> [String] {
        guard stations.contains(where: { $0.health != nil }) else { return [] }
        let width = stations.map(\.name.count).max() ?? 0
        return ["", "Health:"] + stations.map { station in
            station.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + (station.health?.line ?? "no health published")
        }
    }
}
