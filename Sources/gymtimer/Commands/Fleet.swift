import ArgumentParser
import Foundation
import GymTimerFleetLink

/// `gymtimer fleet`: the gym's view of its stations and one synchronised start (fleet.md).
struct Fleet: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "See every station of the gym, or start them all at one instant.",
        subcommands: [FleetStatus.self, FleetStart.self])
}

/// `gymtimer fleet status`: every station seen, online or not, from the retained topics.
struct FleetStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Every station seen on the broker: online or not, its mode, what is left of its countdown and what it shows.")

    @OptionGroup var broker: FleetBrokerOptions

    @Option(name: .long, help: "Seconds to wait for the retained messages.")
    var wait = 1.0

    func run() throws {
        let console = FleetConsole(options: try broker.options(clientID: "gymtimer-fleet-\(getpid())"), prefix: broker.topicPrefix)
        let stations: [FleetConsole.Station]
        do {
            stations = try console.stations(wait: wait)
        } catch {
            throw CLIError.failed("\(error)")
        }
        guard !stations.isEmpty else {
            print("No stations seen on \(broker.broker) (prefix \(broker.topicPrefix)).")
            return
        }
        let rows = [["Station", "Status", "Mode", "Phase", "Left", "Display"]]
            + stations.map { [$0.name, $0.status, $0.mode, $0.phase, $0.left, $0.display] }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            print(row.indices.map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces))
        }
    }
}

/// `gymtimer fleet start`: one synchronised start, `at` = now + `--in` seconds.
struct FleetStart: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Start stations at one instant: {\"do\": \"start\", \"at\": now + --in}.")

    @OptionGroup var broker: FleetBrokerOptions

    @OptionGroup var target: FleetTargetOptions

    // Unconditional, so `--in -5` reaches the range check below instead of reading as an option.
    @Option(name: .customLong("in"), parsing: .unconditional, help: "Seconds from now to the start (0 to 3600).")
    var delay = 10.0

    func run() throws {
        guard delay.isFinite, delay >= 0, delay <= 3600 else {
            throw CLIError.usage("--in \(delay.formatted()): must be between 0 and 3600 seconds from now")
        }
        let destination = try target.parsed()
        let console = FleetConsole(options: try broker.options(clientID: "gymtimer-fleet-\(getpid())"), prefix: broker.topicPrefix)
        // `at` is worked out once the stations are checked, so the check does not eat into --in.
        let delivery: FleetConsole.Delivery
        var at = 0.0
        do {
            delivery = try console.send(to: destination) {
                at = Date().timeIntervalSince1970 + delay
                return "{\"do\":\"start\",\"at\":\(String(format: "%.3f", at))}"
            }
        } catch {
            throw CLIError.failed("\(error)")
        }
        print("start at \(String(format: "%.3f", at)) (\(target.describe(destination, delivery)))")
    }
}
