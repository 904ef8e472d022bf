import Foundation
import GymTimerConfig
import GymTimerSimulator

extension Simulate {
    /// `simulate --headless` (simulation.md): see `HeadlessSimulation`.
    func runHeadless(_ configuration: GymTimerConfiguration) throws {
        guard script == nil else { throw CLIError.usage("--headless reads its script lines from stdin; leave out --script") }
        var directory = dataDir
        if directory == nil {
            var template = Array((NSTemporaryDirectory() + "gymtimer-headless-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else { throw CLIError.usage("cannot create a temporary data directory") }
            directory = String(cString: made)
        }
        let output = StandardOutput()
        let simulation = try CLIError.asUsage {
            try HeadlessSimulation(
                configuration: configuration, dataDirectory: directory!,
                write: { output.writeLine($0); output.flush() }, log: { StandardError.writeLine($0) })
        }
        try CLIError.asFailure("simulation failed: ") { try simulation.run() }
        output.flush()
        if dataDir == nil { try? FileManager.default.removeItem(atPath: directory!) }
    }
}
