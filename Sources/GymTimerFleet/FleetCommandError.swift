import Foundation

/// Why a fleet command was refused: sent back as an `error` event and logged once per kind.
public enum FleetCommandError: Error, Hashable, Sendable, CustomStringConvertible {
    case tooLarge(bytes: Int)
    case malformed
    case notAnObject
    case missing(String)
    case wrongType(field: String, expected: String)
    case unexpected(field: String, command: String)
    case unknown(String)
    /// Well formed, but not allowed in the state the station is in.
    case notAllowed(command: String, reason: String)
    /// A `start` whose `at` is more than the allowed slack in the past.
    case startInThePast(by: Double)

    /// One word for the kind of problem, so the log says each kind once, not each message.
    public var kind: String {
        switch self {
        case .tooLarge: return "too-large"
        case .malformed, .notAnObject: return "malformed"
        case .missing, .wrongType, .unexpected: return "bad-field"
        case .unknown: return "unknown-command"
        case .notAllowed: return "not-allowed"
        case .startInThePast: return "too-late"
        }
    }

    public var description: String {
        switch self {
        case .tooLarge(let bytes): return "command of \(bytes) bytes refused: at most \(FleetCommand.maximumSize)"
        case .malformed: return "command is not JSON"
        case .notAnObject: return "command must be a JSON object such as {\"do\": \"start\"}"
        case .missing(let field): return "command lacks \"\(field)\""
        case .wrongType(let field, let expected): return "\"\(field)\" must be \(expected)"
        case .unexpected(let field, let command): return "\"\(field)\" is not a field of \"\(command)\""
        case .unknown(let name): return "unknown command \"\(name)\": start, dismiss, select or set"
        case .notAllowed(let command, let reason): return "\"\(command)\" not allowed now: \(reason)"
        case .startInThePast(let seconds):
            return "start refused: \"at\" is \(String(format: "%.1f", seconds)) s in the past (at most 2 s allowed)"
        }
    }
}
