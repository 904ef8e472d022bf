import ArgumentParser
import GymTimerCore

/// `gymtimer-central` (what `gymtimer collect|history|stats|athletes --db postgresql://…` run, every
/// argument unchanged): a chain's central collector, its history
/// and its roster over PostgreSQL (`GymTimerCentral`). A program of its own so that the kiosk's `gymtimer`
/// links no PostgreSQL client.
@main
struct CentralCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gymtimer-central",
        abstract: "A chain of gyms' central collector and history, in PostgreSQL.",
        version: GymTimerVersion.current,
        subcommands: [CentralCollect.self, CentralHistory.self, CentralStats.self, CentralAthletes.self])
}
