import GymTimerCore

/// A command from the fleet (fleet.md, "What a station obeys"), parsed and checked for shape.
/// Whether it is allowed *now* is the kiosk's business; this only says what was asked.
public enum FleetCommand: Hashable, Sendable {
    /// As a press of start; with `at`, at that Unix time (a synchronised class start).
    case start(at: Double?)
    /// A class's start on this station: what to run (by name, or a program's definition)
    /// picked now and started at the Unix time `at` — or, when the station is busy or has no
    /// such entry, refused whole with nothing changed (the station's answer says which: the
    /// class is prepared and armed in one step).
    case classStart(at: Double, runs: FleetClassProgram)
    /// Calls off the start scheduled with `at` (nothing else changes).
    case cancel
    /// Changes nothing; answered, so that whoever sends it learns the station is there (the
    /// console pings when it connects: a station known only from a retained message is not
    /// ticked for a class until it answers).
    case ping
    /// As a press of dismiss.
    case dismiss
    /// As picking a mode (and a preset or program by name) in the menu, only while idle.
    case select(mode: String, name: String?)
    /// The rest duration, as the knob could set it (the kiosk refuses one it could not).
    case setRest(seconds: Int)
    /// Pause, resume or end without recording what runs, whatever the mode.
    case pause, resume, reset
    /// A text on the display for `seconds` (the kiosk refuses one its digits cannot draw).
    case message(text: String, seconds: Int)
    /// Locks or unlocks the wall's buttons and knob (commands still work).
    case lock, unlock
    /// The display's brightness, 0…100 %.
    case brightness(percent: Int)
    /// The hours the display sleeps (`SleepWindow`), or nil: never (`{"do":"sleep","off":true}`).
    case sleep(SleepWindow?)
    /// The coach's class list puts an athlete on the station (`{"do":"athlete","card":"04A1B2C3",
    /// "short":"AnnA","division":"scaled"}`), as a tap of their card would, in a division when it
    /// says one (`CardTap.division`); `"card":null` takes them off (a guest).
    case athlete(CardTap?)
    /// The gym forgot the athlete of this card (`gymtimer athletes forget`): the station deletes
    /// that card's records from its history and outbox and takes it off the station if it is on
    /// (`{"do":"forget","card":"04A1B2C3"}`, sent by the collector to each station's own topic).
    case forget(card: CardID)
    /// Upgrade GymTimer from the gym's package source (`{"do":"upgrade"}`, Home Assistant's
    /// install action): handed to the station's upgrade agent, which waits for it to be idle.
    case upgrade

    /// How long a message shows when the command does not say.
    public static let defaultMessageSeconds = 10

    /// The largest payload a station reads; anything longer is refused unread.
    public static let maximumSize = 4096
    /// How far in the past a start's `at` may be and still be obeyed (fleet.md).
    public static let startSlack = 2.0
    /// How far ahead a start's `at` may be (fleet.md).
    public static let startHorizon = 86_400.0

    /// How long from now on `wall` until `at`, if `at` lies in the window [now − `startSlack`,
    /// now + `startHorizon`]; checked before any conversion, so no value can trap.
    public static func startDelay(at: Double, wall: WallClock) -> Result<Duration, FleetCommandError> {
        let now = wall.now
        guard at.isFinite, now.isFinite else { return .failure(.wrongType(field: "at", expected: "a Unix time in seconds")) }
        let ahead = at - now
        guard ahead >= -startSlack else { return .failure(.startInThePast(by: -ahead)) }
        guard ahead <= startHorizon else { return .failure(.startTooFarAhead(by: ahead)) }
        return .success(.nanoseconds(Int64((ahead * 1e9).rounded())))
    }

    /// The modes `select` accepts.
    public static let modes: Set<String> = ["rest", "interval", "workout", "program"]

    /// Parses one payload. Every way a payload can be wrong is one `FleetCommandError`.
    public static func parse(_ payload: [UInt8]) -> Result<FleetCommand, FleetCommandError> {
        object(of: payload).flatMap { parse(object: $0) }
    }

    /// The JSON object a payload holds, or why it holds none (too large, not JSON, not an object).
    static func object(of payload: [UInt8]) -> Result<[String: JSONValue], FleetCommandError> {
        guard payload.count <= maximumSize else { return .failure(.tooLarge(bytes: payload.count)) }
        guard let json = JSONValue.parse(payload) else { return .failure(.malformed) }
        guard case .object(let object) = json else { return .failure(.notAnObject) }
        return .success(object)
    }

    /// The command a payload's object says (its fields checked: any field not the command's is
    /// refused, so an `id` must be taken out first: `FleetRequest`).
    static func parse(object: [String: JSONValue]) -> Result<FleetCommand, FleetCommandError> {
        guard let verb = object["do"] else { return .failure(.missing("do")) }
        guard let name = verb.string else { return .failure(.wrongType(field: "do", expected: "a string")) }
        let fields = Fields(object: object, command: name)
        func only(_ allowed: Set<String>) -> FleetCommandError? { fields.only(allowed) }
        switch name {
        case "start": return start(fields)
        case "dismiss", "pause", "resume", "reset", "lock", "unlock", "cancel", "ping", "upgrade":
            if let extra = only(["do"]) { return .failure(extra) }
            let simple: [String: FleetCommand] = [
                "dismiss": .dismiss, "pause": .pause, "resume": .resume, "reset": .reset, "lock": .lock, "unlock": .unlock,
                "cancel": .cancel, "ping": .ping, "upgrade": .upgrade,
            ]
            return .success(simple[name]!)
        case "brightness":
            if let extra = only(["do", "percent"]) { return .failure(extra) }
            guard let raw = object["percent"] else { return .failure(.missing("percent")) }
            guard let value = raw.number, value.rounded() == value, (0...100).contains(value) else {
                return .failure(.wrongType(field: "percent", expected: "a whole percentage, 0 to 100"))
            }
            return .success(.brightness(percent: Int(value)))  // whole and within 0…100: exact
        case "sleep": return sleep(fields)
        case "message": return message(fields)
        case "athlete": return athlete(fields)
        case "forget":
            if let extra = only(["do", "card"]) { return .failure(extra) }
            guard let raw = object["card"] else { return .failure(.missing("card")) }
            guard let text = raw.string, let card = CardID(hex: text) else {
                return .failure(.wrongType(field: "card", expected: "a card's pseudonym in hex (24 digits)"))
            }
            return .success(.forget(card: card))
        case "select":
            if let extra = only(["do", "mode", "name"]) { return .failure(extra) }
            return selection(in: object).map { .select(mode: $0.mode, name: $0.name) }
        case "set":
            if let extra = only(["do", "rest_seconds"]) { return .failure(extra) }
            guard let raw = object["rest_seconds"] else { return .failure(.missing("rest_seconds")) }
            guard let value = raw.number, value.rounded() == value, (1...3600).contains(value) else {
                return .failure(.wrongType(field: "rest_seconds", expected: "whole seconds between 1 and 3600"))
            }
            return .success(.setRest(seconds: Int(value)))  // whole and within 1…3600: exact
        default:
            return .failure(.unknown(name.count > 32 ? String(name.prefix(32)) + "…" : name))
        }
    }

    /// A command's object, for refusing any field its command does not take.
    private struct Fields {
        let object: [String: JSONValue]
        let command: String

        /// The first field (by name) not in `allowed`, as the refusal.
        func only(_ allowed: Set<String>) -> FleetCommandError? {
            (Set(object.keys).subtracting(allowed).sorted().first).map { .unexpected(field: $0, command: command) }
        }
    }

    /// `start`: a start: now, at an instant, or a class's at an instant with its mode or program.
    private static func start(_ fields: Fields) -> Result<FleetCommand, FleetCommandError> {
        if let extra = fields.only(["do", "at", "mode", "name", "program"]) { return .failure(extra) }
        guard let raw = fields.object["at"] else {
            if let extra = fields.only(["do"]) { return .failure(extra) }
            return .success(.start(at: nil))
        }
        guard let at = raw.number, at.isFinite, at > 0 else {
            return .failure(.wrongType(field: "at", expected: "a Unix time in seconds"))
        }
        if let raw = fields.object["program"] {
            if let extra = fields.only(["do", "at", "program"]) { return .failure(extra) }
            guard case .object(let definition) = raw else {
                return .failure(.wrongType(field: "program", expected: "a program's definition, a JSON object"))
            }
            return Program.parse(definition: definition).map { .classStart(at: at, runs: .defined($0)) }
        }
        guard fields.object["mode"] != nil else {
            if let extra = fields.only(["do", "at"]) { return .failure(extra) }
            return .success(.start(at: at))
        }
        return selection(in: fields.object).map { .classStart(at: at, runs: .named(mode: $0.mode, name: $0.name)) }
    }

    /// `sleep`: a sleep window, or `off`.
    private static func sleep(_ fields: Fields) -> Result<FleetCommand, FleetCommandError> {
        if let extra = fields.only(["do", "from", "until", "off"]) { return .failure(extra) }
        if let off = fields.object["off"] {
            guard off == .bool(true) else { return .failure(.wrongType(field: "off", expected: "true")) }
            if let extra = fields.only(["do", "off"]) { return .failure(extra) }
            return .success(.sleep(nil))
        }
        guard let rawFrom = fields.object["from"] else { return .failure(.missing("from")) }
        guard let rawUntil = fields.object["until"] else { return .failure(.missing("until")) }
        guard let from = rawFrom.string, SleepWindow.minutes(from) != nil else {
            return .failure(.wrongType(field: "from", expected: "a time HH:MM, 00:00 to 23:59"))
        }
        guard let until = rawUntil.string, SleepWindow.minutes(until) != nil else {
            return .failure(.wrongType(field: "until", expected: "a time HH:MM, 00:00 to 23:59"))
        }
        switch SleepWindow.parse(from: from, until: until) {
        case .success(let window): return .success(.sleep(window))
        case .failure: return .failure(.wrongType(field: "until", expected: "a time other than from"))
        }
    }

    /// `message`: a floor message and how long it shows.
    private static func message(_ fields: Fields) -> Result<FleetCommand, FleetCommandError> {
        if let extra = fields.only(["do", "text", "seconds"]) { return .failure(extra) }
        guard let raw = fields.object["text"] else { return .failure(.missing("text")) }
        guard let text = raw.string, !text.isEmpty, text.count <= 64 else {
            return .failure(.wrongType(field: "text", expected: "a text of 1 to 64 characters"))
        }
        guard let rawSeconds = fields.object["seconds"] else { return .success(.message(text: text, seconds: defaultMessageSeconds)) }
        guard let seconds = rawSeconds.number, seconds.rounded() == seconds, (1...60).contains(seconds) else {
            return .failure(.wrongType(field: "seconds", expected: "whole seconds between 1 and 60"))
        }
        return .success(.message(text: text, seconds: Int(seconds)))  // whole and within 1…60: exact
    }

    /// `athlete`: the class list's athlete on the station (their card, short name, division), or nobody.
    private static func athlete(_ fields: Fields) -> Result<FleetCommand, FleetCommandError> {
        if let extra = fields.only(["do", "card", "short", "division"]) { return .failure(extra) }
        guard let raw = fields.object["card"] else { return .failure(.missing("card")) }
        if raw == .null {
            if let extra = fields.only(["do", "card"]) { return .failure(extra) }
            return .success(.athlete(nil))
        }
        guard let text = raw.string, let card = CardID(hex: text) else {
            return .failure(.wrongType(field: "card", expected: "a card's pseudonym in hex (24 digits), or null"))
        }
        var tap = CardTap(card: card)
        if let rawShort = fields.object["short"] {
            if let short = rawShort.string, let problem = NameText.problem(short) {
                return .failure(.badName(field: "short", problem: problem.description))
            }
            guard let short = rawShort.string, !short.isEmpty, DisplayContent.canDraw(short) else {
                return .failure(.wrongType(field: "short", expected: "a short name of up to 4 characters a digit draws"))
            }
            tap.shortName = short
        }
        if let rawDivision = fields.object["division"] {
            guard let division = rawDivision.string.flatMap(Division.init(rawValue:)) else {
                return .failure(.wrongType(field: "division", expected: "rx or scaled"))
            }
            tap.division = division
        }
        return .success(.athlete(tap))
    }

    /// The `mode` (one of `modes`) and optional `name` (1 to 64 bytes) of a `select` or a class
    /// start, checked.
    private static func selection(in object: [String: JSONValue]) -> Result<(mode: String, name: String?), FleetCommandError> {
        guard let raw = object["mode"] else { return .failure(.missing("mode")) }
        guard let mode = raw.string, modes.contains(mode) else {
            return .failure(.wrongType(field: "mode", expected: "one of " + modes.sorted().joined(separator: ", ")))
        }
        guard let rawName = object["name"] else { return .success((mode, nil)) }
        guard let preset = rawName.string, !preset.isEmpty, preset.utf8.count <= 64 else {
            return .failure(.wrongType(field: "name", expected: "a name of up to 64 bytes"))
        }
        return .success((mode, preset))
    }
}
