import CMosquittoShim
import Glibc
import GymTimerHAL
import SystemPackage

/// What went wrong talking to the broker, saying which broker and what to do.
public enum MQTTError: Error, Hashable, Sendable, CustomStringConvertible {
    /// libmosquitto refused a call: the operation and its own words for why.
    case client(operation: String, broker: String, detail: String)
    /// A file the connection needs (password file, CA file) cannot be read.
    case unreadable(file: String, detail: String)

    public var description: String {
        switch self {
        case .client(let operation, let broker, let detail): return "MQTT broker \(broker): \(operation) failed: \(detail)"
        case .unreadable(let file, let detail): return "cannot read \(file): \(detail)"
        }
    }

    /// The error for libmosquitto result `code` (errno for MOSQ_ERR_ERRNO).
    static func from(_ code: Int32, operation: String, broker: String) -> MQTTError {
        let detail: String
        if code == Int32(MOSQ_ERR_ERRNO.rawValue) {
            detail = Errno.last.text
        } else {
            detail = String(cString: gt_mosquitto_strerror(code))
        }
        return .client(operation: operation, broker: broker, detail: detail)
    }
}
