/// Why a simulation could not be set up.
public enum SimulationSetupError: Error, CustomStringConvertible {
    case unusableDataDirectory(String)
    case dataDirectoryInUse(String)
    /// SIGTERM and SIGINT could not be caught (the reason says why).
    case stopSignals(String)

    public var description: String {
        switch self {
        case .unusableDataDirectory(let path):
            return "cannot use data directory \(path): it must be a writable directory (or creatable)"
        case .dataDirectoryInUse(let reason):
            return reason
        case .stopSignals(let reason):
            return "cannot catch SIGTERM and SIGINT: \(reason)"
        }
    }
}
