import ArgumentParser
import Foundation
import GymTimerCore
import GymTimerRuntime
import GymTimerSimulation

/// `gymtimer simulate`: the kiosk on simulated hardware, scripted (virtual time, JSON trace)
/// or interactive in the terminal.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the kiosk on simulated hardware: interactive in the terminal, or scripted with --script.")

    @Option(name: .long, help: "Input script (simulation.md); runs in virtual time and prints a JSON Lines trace.")
    var script: String?

    @Option(name: .long, help: "Config file (TOML); the built-in defaults apply without it.")
    var config: String?

    @Option(name: .customLong("data-dir"), help: "Keep what the controller stores here (default: a fresh temporary directory).")
    var dataDir: String?

    func run() throws {
        let configuration = try loadConfiguration(config)
        guard let script else {
            throw CLIError.failed("the interactive simulator is not built yet; use --script FILE")
        }
        let text: String
        do {
            text = try String(contentsOfFile: script, encoding: .utf8)
        } catch {
            throw CLIError.usage("cannot read script \(script): \(error.localizedDescription)")
        }
        let parsed: SimulationScript
        do {
            parsed = try ScriptParser().parse(text)
        } catch {
            throw CLIError.usage("\(script): \(error)")
        }
        let output = StandardOutput()
        let simulation = ScriptedSimulation(
            script: parsed, settings: configuration.kiosk, display: configuration.hardware.display.kind,
            write: { output.writeLine($0) }, log: { StandardError.writeLine($0) })
        do {
            try simulation.run()
        } catch {
            throw CLIError.failed("simulation failed: \(error)")
        }
        output.flush()
    }
}
