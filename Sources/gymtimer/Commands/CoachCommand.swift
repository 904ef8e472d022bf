import ArgumentParser
import Foundation
import GymTimerFleet
import GymTimerFleetCommands

/// A coach's command to stations (`fleet start`, `pause`, `select`…): the broker, the stations
/// (`--stations a,b` or all), and the `FleetCommand` it sends. Every one is sent the same way:
/// the stations checked on the broker, the command published once with an id (never
/// retained), each station's answer awaited, and one line saying what each did. The exit
/// status is 0 only when every station it was for did it; 1 when any refused it, did not
/// answer or (named with `--stations`) was offline (fleet.md, "Commands are answered").
protocol CoachCommand: ParsableCommand {
    var broker: FleetBrokerOptions { get }
    var target: FleetTargetOptions { get }
    /// The command, made once the stations are checked (a start's `at` counts from then).
    func command() -> FleetCommand
    /// The confirmation's first words.
    func confirmation(_ command: FleetCommand) -> String
    /// The word for a station that did it (`done`; `scheduled` for a start at an instant).
    var doneWord: String { get }
    /// Whether the command is all or nothing (a class start): when any station refuses or does
    /// not answer, it is called off (`cancel`) on the stations that did it.
    var callsOffUnlessAll: Bool { get }
}

extension CoachCommand {
    func confirmation(_ command: FleetCommand) -> String { command.json }
    var doneWord: String { "done" }
    var callsOffUnlessAll: Bool { false }

    func run() throws {
        let destination = try target.parsed()
        let console = FleetConsole(options: try broker.options(clientID: "gymtimer-fleet-\(getpid())"), prefix: broker.topicPrefix)
        let delivery: FleetConsole.Delivery
        do {
            delivery = try console.send(to: destination, command: command)
        } catch {
            throw CLIError.failed("\(error)")
        }
        let line = "\(confirmation(delivery.command)) (\(target.describe(destination, delivery, done: doneWord)))"
        print(line)
        guard target.succeeded(destination, delivery) else {
            let scheduled = delivery.answers.done
            guard callsOffUnlessAll, !scheduled.isEmpty else {
                throw CLIError.failed("not done everywhere: \(delivery.answers.summary(done: doneWord))")
            }
            // The whole class or none of it: called off where it was scheduled.
            let calledOff: FleetConsole.Delivery
            do {
                calledOff = try console.send(to: .stations(scheduled)) { .cancel }
            } catch {
                throw CLIError.failed("not done everywhere, and calling it off failed: \(error)")
            }
            print("start \(calledOff.answers.summary(done: "called off"))")
            throw CLIError.failed("not started anywhere (some stations were not ready); add --start-ready to start the ready ones")
        }
    }
}
