import GymTimerSetup
import GymTimerSystem

extension KioskDataDirectory {
    /// `path` opened for a real-time simulator (terminal or headless), made if missing; a
    /// directory that cannot be used, or that another process holds, is a setup error (one line).
    static func simulator(_ path: String, faults: FaultLog) throws(SimulationSetupError) -> KioskDataDirectory {
        guard ScriptedSimulation.makeDirectory(path) else { throw .unusableDataDirectory(path) }
        do {
            return try KioskDataDirectory(path: path, faults: faults)
        } catch {
            throw .dataDirectoryInUse("\(error)")
        }
    }
}
