#if canImport(Glibc)
import Glibc
#endif
import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerRuntime
import GymTimerSystem

/// `gymtimer simulate` without a script: the kiosk in this terminal, in real time, until `q`
/// or Ctrl-C, keeping what it records in `dataDirectory` when one is given. The terminal is
/// put back however the run ends (see `TerminalMode`).
public enum TerminalKiosk {
    /// Why the terminal kiosk could not run.
    public enum Failure: Error, CustomStringConvertible {
        /// Standard input is not a terminal (a pipe, a file): there are no keys to read.
        case notATerminal
        case terminal(TerminalModeError)
        case setup(SimulationSetupError)
        case run(any Error)

        /// True when the user asked for something that cannot work (a usage error, exit 2).
        public var isUsage: Bool {
            switch self {
            case .notATerminal, .setup: return true
            case .terminal, .run: return false
            }
        }

        public var description: String {
            switch self {
            case .notATerminal:
                return "the interactive simulator needs a terminal on stdin; use --script FILE to run from a script"
            case .terminal(let error): return "cannot set up the terminal: \(error)"
            case .setup(let error): return "\(error)"
            case .run(let error): return "simulation failed: \(error)"
            }
        }
    }

    /// SIGTERM and SIGHUP (a closed terminal) end the run as `q` does, so a fleet station says `offline`.
    public static func run(
        _ configuration: GymTimerConfiguration, bell: Bool, dataDirectory: String?
    ) throws(Failure) {
        guard isatty(0) == 1 else { throw .notATerminal }
        let mode: TerminalMode
        do {
            mode = try TerminalMode()
        } catch {
            throw .terminal(error)
        }
        defer { mode.restore() }
        // Caught after the terminal mode's handlers, so they stop the loop (the terminal is
        // restored on the way out) instead of killing the process mid-draw.
        let stopSignals: StopSignals
        do {
            stopSignals = try StopSignals([SIGTERM, SIGHUP])
        } catch {
            throw .run(error)
        }
        let simulation: TerminalSimulation
        do {
            simulation = try TerminalSimulation(
                configuration: configuration, resizeFD: mode.resizeDescriptor, size: { mode.size },
                bell: bell, dataDirectory: dataDirectory, wallTime: WallClock.system.sinceEpoch, stopSignals: stopSignals,
                write: { mode.write($0) })
        } catch {
            throw .setup(error)
        }
        do {
            try simulation.run()
        } catch {
            throw .run(error)
        }
    }
}
