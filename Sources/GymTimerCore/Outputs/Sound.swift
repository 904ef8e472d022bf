/// A sound cue for the audio output. Its `name` (`alarm`, `warning`, `set-3`, …) is how the
/// simulator's trace (simulation.md), the journal and an owner's override file (`<name>.wav`)
/// know it; the drivers' `SoundCatalog` says how each one sounds.
public enum Sound: Hashable, Sendable, CustomStringConvertible {
    /// The rest is over and nobody came: repeats until dismissed.
    case alarm
    /// The last seconds of a countdown.
    case warning
    /// A workout (or program) finished.
    case complete
    /// A rest of rest mode ended.
    case restOver
    /// "Set N completing in 3, 2, 1".
    case setCompleting(Int)
    /// The calls of programs (programs.md): "Go", "Work", "Rest", "Round N", "Halfway",
    /// "Last minute", "Time cap".
    case go
    case work
    case rest
    case round(Int)
    case halfway
    case lastMinute
    case timeCap
    /// A result beat the athlete's best of that program and division (`Pr` on the display).
    case personalRecord

    /// Whether it repeats until stopped (the alarm) or plays once.
    public var loops: Bool { self == .alarm }

    /// The cue's name in traces, journals and override file names.
    public var name: String {
        switch self {
        case .alarm: return "alarm"
        case .warning: return "warning"
        case .complete: return "complete"
        case .restOver: return "rest-over"
        case .setCompleting(let n): return "set-\(n)"
        case .go: return "go"
        case .work: return "work"
        case .rest: return "rest"
        case .round(let n): return "round-\(n)"
        case .halfway: return "halfway"
        case .lastMinute: return "last-minute"
        case .timeCap: return "time-cap"
        case .personalRecord: return "personal-record"
        }
    }

    /// The cue called `name`, or nil for a name no cue has.
    public init?(name: String) {
        let plain: [Sound] = [.alarm, .warning, .complete, .restOver, .go, .work, .rest, .halfway, .lastMinute, .timeCap, .personalRecord]
        if let sound = plain.first(where: { $0.name == name }) {
            self = sound
        } else if name.hasPrefix("set-"), let n = Int(name.dropFirst(4)), n.description == name.dropFirst(4) {
            self = .setCompleting(n)
        } else if name.hasPrefix("round-"), let n = Int(name.dropFirst(6)), n.description == name.dropFirst(6) {
            self = .round(n)
        } else {
            return nil
        }
    }

    public var description: String { name }
}

/// Stored as it always was, `{"name": "set-3", "loops": false}`, so journals written before
/// sounds were an enum still read.
extension Sound: Codable {
    private enum CodingKeys: String, CodingKey { case name, loops }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        guard let sound = Sound(name: name) else {
            throw DecodingError.dataCorruptedError(forKey: .name, in: container, debugDescription: "no sound cue is called '\(name)'")
        }
        self = sound
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(loops, forKey: .loops)
    }
}
