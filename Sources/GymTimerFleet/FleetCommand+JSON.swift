/// The payload that says a command (what `parse` reads back as it): what the coach's tools
/// publish, so the command's shape is written in one place, beside its parser. Its keys in the
/// order written here (`do` first), encoded by `FleetJSONEncoder`.
extension FleetCommand: Encodable {
    enum CodingKeys: String, CodingKey {
        case verb = "do"
        case at, mode, name, program, percent, off, from, until, text, seconds, card, short, division
        case restSeconds = "rest_seconds"
    }

    /// The payload as JSON text.
    public var json: String { FleetJSONEncoder().text(self) }

    public func encode(to encoder: Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(verb, forKey: .verb)
        switch self {
        case .start(let at):
            try fields.encodeIfPresent(at.map(WireSeconds.init), forKey: .at)
        case .classStart(let at, let runs):
            try fields.encode(WireSeconds(at), forKey: .at)
            switch runs {
            case .named(let mode, let name):
                try fields.encode(mode, forKey: .mode)
                try fields.encodeIfPresent(name, forKey: .name)
            case .defined(let program):
                try fields.encode(ProgramDefinition(program), forKey: .program)
            }
        case .cancel, .ping, .dismiss, .pause, .resume, .reset, .lock, .unlock, .upgrade: break
        case .brightness(let percent): try fields.encode(percent, forKey: .percent)
        case .sleep(nil): try fields.encode(true, forKey: .off)
        case .sleep(let window?):
            try fields.encode(window.fromText, forKey: .from)
            try fields.encode(window.untilText, forKey: .until)
        case .message(let text, let seconds):
            try fields.encode(text, forKey: .text)
            try fields.encode(seconds, forKey: .seconds)
        case .setRest(let seconds): try fields.encode(seconds, forKey: .restSeconds)
        case .athlete(nil): try fields.encodeNil(forKey: .card)
        case .athlete(let tap?):
            try fields.encode(tap.card.hex, forKey: .card)
            try fields.encodeIfPresent(tap.shortName, forKey: .short)
            try fields.encodeIfPresent(tap.division?.rawValue, forKey: .division)
        case .forget(let card): try fields.encode(card.hex, forKey: .card)
        case .select(let mode, let name):
            try fields.encode(mode, forKey: .mode)
            try fields.encodeIfPresent(name, forKey: .name)
        }
    }

    /// The command's `do`.
    var verb: String {
        switch self {
        case .start, .classStart: "start"
        case .cancel: "cancel"
        case .ping: "ping"
        case .dismiss: "dismiss"
        case .pause: "pause"
        case .resume: "resume"
        case .reset: "reset"
        case .lock: "lock"
        case .unlock: "unlock"
        case .brightness: "brightness"
        case .sleep: "sleep"
        case .message: "message"
        case .setRest: "set"
        case .athlete: "athlete"
        case .forget: "forget"
        case .upgrade: "upgrade"
        case .select: "select"
        }
    }
}
