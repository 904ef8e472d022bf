import ArgumentParser
import Foundation
import GymTimerConfig
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

    @Flag(name: .long, help: "Ring the terminal's bell on every beep (interactive only).")
    var bell = false

    @Option(name: .customLong("data-dir"), help: "Keep what the controller stores here (default: a fresh temporary directory).")
    var dataDir: String?

    func run() throws {
        let configuration = try loadConfiguration(config)
        guard let script else {
            return try runInTerminal(configuration)
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
        let simulation: ScriptedSimulation
        do {
            simulation = try ScriptedSimulation(
                script: parsed, settings: configuration.kiosk, display: configuration.hardware.display.kind,
                audio: configuration.audio.enabled, dataDirectory: dataDir, write: { output.writeLine($0) }, log: { StandardError.writeLine($0) })
        } catch {
            throw CLIError.usage("\(error)")
        }
        do {
            try simulation.run()
        } catch {
            throw CLIError.failed("simulation failed: \(error)")
        }
        output.flush()
    }

    /// The kiosk in this terminal, in real time, until `q` or Ctrl-C. The terminal is put
    /// back however the run ends (see `TerminalMode`).
    private func runInTerminal(_ configuration: GymTimerConfiguration) throws {
        guard isatty(0) == 1 else {
            throw CLIError.usage("the interactive simulator needs a terminal on stdin; use --script FILE to run from a script")
        }
        let mode: TerminalMode
        do {
            mode = try TerminalMode()
        } catch {
            throw CLIError.failed("cannot set up the terminal: \(error)")
        }
        let simulation = TerminalSimulation(
            settings: configuration.kiosk, display: configuration.hardware.display.kind,
            audio: configuration.audio.enabled, resizeFD: mode.resizeDescriptor, size: { mode.size }, bell: bell,
            write: { mode.write($0) })
        do {
            try simulation.run()
        } catch {
            mode.restore()
            throw CLIError.failed("simulation failed: \(error)")
        }
        mode.restore()
    }
}
