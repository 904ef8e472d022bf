import Foundation

/// Why a fleet command was refused: sent back as an `error` event and logged once per kind.
public enum FleetCommandError: Error, Hashable, Sendable, CustomStringConvertible {
    case tooLarge(bytes: Int)
    case malformed
    case notAnObject
    case missing(String)
    case wrongType(field: String, expected: String)
    case unexpected(field: String, command: String)
    /// A name or label holding a character no name may (`NameText`), the problem as it says it.
    case badName(field: String, problem: String)
    case unknown(String)
    /// Well formed, but not allowed in the state the station is in.
    case notAllowed(command: String, reason: String)
    /// A `start` whose `at` is more than the allowed slack in the past.
    case startInThePast(by: Double)
    /// A `start` whose `at` is more than `FleetCommand.startHorizon` (24 h) ahead.
    case startTooFarAhead(by: Double)
    /// A retained command: commands are events, never replayed to whoever subscribes later.
    case retained

    /// One word for the kind of problem, so the log says each kind once, not each message.
    public var kind: String {
        switch self {
        case .tooLarge: return "too-large"
        case .malformed, .notAnObject: return "malformed"
        case .missing, .wrongType, .unexpected, .badName: return "bad-field"
        case .unknown: return "unknown-command"
        case .notAllowed: return "not-allowed"
        case .startInThePast: return "too-late"
        case .startTooFarAhead: return "too-early"
        case .retained: return "retained"
        }
    }

    /// `value` seconds for a message, bounded (a hostile 1e300 prints as "over 1e9").
    private static func seconds(_ value: Double) -> String {
        value.isFinite && abs(value) < 1e9 ? String(format: "%.1f", value) : "over 1e9"
    }

    public var description: String {
        switch self {
        case .tooLarge(let bytes): return "command of \(bytes) bytes refused: at most \(FleetCommand.maximumSize)"
        case .malformed: return "command is not JSON"
        case .notAnObject: return "command must be a JSON object such as {\"do\": \"start\"}"
        case .missing(let field): return "command lacks \"\(field)\""
        case .wrongType(let field, let expected): return "\"\(field)\" must be \(expected)"
        case .unexpected(let field, let command): return "\"\(field)\" is not a field of \"\(command)\""
        case .badName(let field, let problem): return "\"\(field)\" \(problem)"
        case .unknown(let name): return "unknown command \"\(name)\": start, cancel, ping, dismiss, pause, resume, reset, select, set, message, lock, unlock, brightness or sleep"
        case .notAllowed(let command, let reason): return "\"\(command)\" not allowed now: \(reason)"
        case .startInThePast(let seconds):
            return "start refused: \"at\" is \(Self.seconds(seconds)) s in the past (at most 2 s allowed)"
        case .startTooFarAhead(let seconds):
            return "start refused: \"at\" is \(Self.seconds(seconds)) s ahead (at most 24 h allowed)"
        case .retained:
            return "a retained command is never obeyed (commands are events; publish them without retain and clear the retained one)"
        }
    }
}
