import ArgumentParser
import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerRuntime
import GymTimerSimulator
import GymTimerSimulation
import GymTimerHAL
import SystemPackage

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

    @Option(
        name: .customLong("data-dir"),
        help: "Keep what the controller stores here: history, running state, the [fleet] outbox (interactive default: nothing is kept, the outbox is in memory; scripted and headless: a fresh temporary directory).")
    var dataDir: String?

    @Flag(name: .long, help: "Real time with no terminal: the trace (with `unix` times) on stdout, script lines from stdin, the [fleet] station if configured.")
    var headless = false

    @Option(
        name: .customLong("pn532"),
        help: "Be a PN532 card reader on this serial line (`pty`: a new pseudo-terminal, its path printed), for a config's `nfc = \"pn532_uart:…\"` without a reader; cards from stdin: `tap UID`, `card UID`, `away`.")
    var pn532: String?

    func run() throws {
        if let pn532 { return try runPN532(on: pn532) }
        let configuration = try loadConfiguration(config)
        if headless { return try runHeadless(configuration) }
        guard let script else {
            return try runInTerminal(configuration)
        }
        let text = try Self.readScript(script)
        let parsed: SimulationScript
        do {
            parsed = try ScriptParser(fleet: configuration.fleet != nil).parse(text)
        } catch {
            throw CLIError.usage("\(script): \(error)")
        }
        let output = StandardOutput()
        let simulation = try CLIError.asUsage {
            try ScriptedSimulation(
                script: parsed, settings: configuration.kiosk, display: configuration.hardware.display.kind,
                audio: configuration.audio.enabled, dataDirectory: dataDir,
                fleet: configuration.fleet != nil ? configuration : nil, write: { output.writeLine($0) }, log: { StandardError.writeLine($0) })
        }
        try CLIError.asFailure("simulation failed: ") { try simulation.run() }
        output.flush()
    }

    /// The most a script file may hold: far more than any script needs, little enough to read whole.
    static let maxScriptBytes = 1 << 20

    /// The text of the script at `path`: a regular file of at most `maxScriptBytes`, so a
    /// device (`/dev/zero`), a FIFO or a directory is one clear line instead of a hang or a
    /// Foundation error code.
    static func readScript(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw CLIError.usage("cannot read script \(path): \(Errno.last.text)") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw CLIError.usage("cannot read script \(path): not a regular file")
        }
        guard info.st_size <= maxScriptBytes else {
            throw CLIError.usage("cannot read script \(path): \(info.st_size) bytes is more than a script may have (\(maxScriptBytes))")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        return String(decoding: bytes.prefix(count), as: UTF8.self)
    }

    private func runInTerminal(_ configuration: GymTimerConfiguration) throws {
        do {
            try TerminalKiosk.run(configuration, bell: bell, dataDirectory: dataDir)
        } catch {
            throw error.isUsage ? CLIError.usage("\(error)") : CLIError.failed("\(error)")
        }
    }
}
