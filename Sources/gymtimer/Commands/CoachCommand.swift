import ArgumentParser
import Foundation
import GymTimerFleet
import GymTimerFleetLink

/// A coach's command to stations (`fleet start`, `pause`, `select`…): the broker, the stations
/// (`--stations a,b` or all), and the `FleetCommand` it sends. Every one is sent the same way:
/// the stations checked on the broker, the command published once (never retained), and one
/// line saying which stations it reached.
protocol CoachCommand: ParsableCommand {
    var broker: FleetBrokerOptions { get }
    var target: FleetTargetOptions { get }
    /// The command, made once the stations are checked (a start's `at` counts from then).
    func command() -> FleetCommand
    /// The confirmation's first words.
    func confirmation(_ command: FleetCommand) -> String
}

extension CoachCommand {
    func confirmation(_ command: FleetCommand) -> String { command.json }

    func run() throws {
        let destination = try target.parsed()
        let console = FleetConsole(options: try broker.options(clientID: "gymtimer-fleet-\(getpid())"), prefix: broker.topicPrefix)
        var sent: FleetCommand?
        let delivery: FleetConsole.Delivery
        do {
            delivery = try console.send(to: destination) {
                let command = command()
                sent = command
                return command.json
            }
        } catch {
            throw CLIError.failed("\(error)")
        }
        print("\(sent.map(confirmation) ?? "") (\(target.describe(destination, delivery)))")
    }
}
