import GymTimerCore

/// Reads the input script of simulation.md: `TIME VERB ARGS...` per line, `#` comments, blank
/// lines ignored, times non-decreasing, `end` last. Every mistake names its line.
public struct ScriptParser: Sendable {
    /// Button names the script may use.
    public var buttons: Set<String>
    /// Whether the fleet verbs (`fleet`, `broker`) may be used: the run hosts a fleet station.
    public var fleet: Bool

    /// The most detents one `turn` line may ask for (200 s of turning): a bound on the edges
    /// one line makes, so no line can hang the simulator or exhaust its memory.
    public static let maxDetents = 10_000
    /// The most detents a whole script may turn, so many `turn` lines at one time cannot build
    /// more edges than memory holds either.
    public static let maxTotalDetents = 100_000

    public init(buttons: Set<String> = ["start", "dismiss"], fleet: Bool = false) {
        self.buttons = buttons
        self.fleet = fleet
    }

    public func parse(_ text: String) throws(ScriptError) -> SimulationScript {
        var steps: [SimulationScript.Step] = []
        var last = Duration.zero
        var end: Duration?
        var totalDetents = 0
        // "\r\n" is one Character in Swift, so CRLF line ends are split on explicitly.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        for (index, rawLine) in lines.enumerated() {
            let number = index + 1
            let content = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard !words.isEmpty else { continue }
            if end != nil { throw ScriptError(line: number, "nothing may follow 'end'") }
            guard words.count >= 2 else { throw ScriptError(line: number, "expected 'TIME VERB ...', got '\(Self.shown(words[0]))'") }
            let time = try seconds(words[0], line: number, what: "time")
            if time < last {
                throw ScriptError(line: number, "time \(words[0]) is earlier than the line before (times must not decrease)")
            }
            last = time
            let args = Array(words.dropFirst(2))
            if words[1] == "end" {
                guard args.isEmpty else { throw ScriptError(line: number, "end takes no arguments") }
                end = time
                continue
            }
            let action = try action(words[1], args, line: number, totalDetents: &totalDetents)
            steps.append(.init(time: time, action: action, line: number))
        }
        guard let end else { throw ScriptError(line: 0, "the last line must be 'TIME end'") }
        return SimulationScript(steps: steps, end: end)
    }

    /// One line's action: VERB and its arguments (`end` is the caller's); `totalDetents` counts
    /// the knob's turns over the whole script.
    private func action(
        _ verb: String, _ args: [String], line: Int, totalDetents: inout Int
    ) throws(ScriptError) -> SimulationScript.Action {
        switch verb {
        case "press": return .press(try button(args, line: line, verb: "press"))
        case "release": return .release(try button(args, line: line, verb: "release"))
        case "click": return .click(try button(args, line: line, verb: "click"))
        case "bounce": return .bounce(try button(args, line: line, verb: "bounce"))
        case "hold":
            guard args.count == 2 else { throw ScriptError(line: line, "usage: TIME hold BUTTON SECONDS") }
            let name = try button([args[0]], line: line, verb: "hold")
            return .hold(name, try seconds(args[1], line: line, what: "hold duration"))
        case "turn":
            guard args.count == 1 else { throw ScriptError(line: line, "usage: TIME turn DETENTS") }
            guard let detents = Int(args[0]), detents.magnitude <= Self.maxDetents else {
                throw ScriptError(
                    line: line,
                    "'\(Self.shown(args[0]))' is not a whole number of detents from -\(Self.maxDetents) to \(Self.maxDetents)")
            }
            totalDetents += Int(detents.magnitude)
            guard totalDetents <= Self.maxTotalDetents else {
                throw ScriptError(line: line, "the script turns the knob more than \(Self.maxTotalDetents) detents in all")
            }
            return .turn(detents)
        case "restart":
            guard args.isEmpty else { throw ScriptError(line: line, "restart takes no arguments") }
            return .restart
        case "tap":
            guard args.count == 1, let card = CardUID(hex: args[0]) else {
                throw ScriptError(line: line, "usage: TIME tap UID (the card's UID in hex, 1 to 10 bytes, e.g. 04A1B2C3)")
            }
            return .tap(card)
        case "fleet", "broker":
            guard fleet else {
                throw ScriptError(line: line, "'\(verb)' needs a [fleet] section in the config: the simulated station has no broker without one")
            }
            return .fleet(try fleetAction(verb, args, line: line))
        default:
            let verbs = "press, release, click, hold, bounce, turn, tap, restart" + (fleet ? ", fleet, broker" : "") + ", end"
            throw ScriptError(line: line, "unknown verb '\(Self.shown(verb))' (\(verbs))")
        }
    }

    /// `fleet [all] [retained] PAYLOAD...` (the payload is the rest of the line, its words
    /// joined by one space), `fleet class [PAYLOAD...]`, `fleet card UID [PAYLOAD...]` or
    /// `broker down|up`.
    private func fleetAction(_ verb: String, _ args: [String], line: Int) throws(ScriptError) -> SimulationScript.FleetAction {
        if verb == "broker" {
            switch args {
            case ["down"]: return .brokerDown
            case ["up"]: return .brokerUp
            default: throw ScriptError(line: line, "usage: TIME broker down|up")
            }
        }
        if args.first == "class" { return .classRecord(payload: args.dropFirst().joined(separator: " ")) }
        if args.first == "card" {
            guard args.count >= 2, let card = CardUID(hex: args[1]) else {
                throw ScriptError(line: line, "usage: TIME fleet card UID [CARD] (a UID of 1 to 10 bytes in hex, published as its pseudonym under the station's card key, then the card's JSON or nothing to clear it)")
            }
            return .athleteCard(card: card, payload: args.dropFirst(2).joined(separator: " "))
        }
        var words = args[...]
        var everyStation = false, retained = false
        while let word = words.first, word == "all" || word == "retained" {
            if word == "all" { everyStation = true } else { retained = true }
            words = words.dropFirst()
        }
        guard !words.isEmpty else { throw ScriptError(line: line, "usage: TIME fleet [all] [retained] MESSAGE (e.g. {\"do\":\"start\"})") }
        return .message(payload: words.joined(separator: " "), everyStation: everyStation, retained: retained)
    }

    private func button(_ args: [String], line: Int, verb: String) throws(ScriptError) -> String {
        guard args.count == 1 else { throw ScriptError(line: line, "usage: TIME \(verb) BUTTON") }
        guard buttons.contains(args[0]) else {
            throw ScriptError(line: line, "unknown button '\(Self.shown(args[0]))' (\(buttons.sorted().joined(separator: ", ")))")
        }
        return args[0]
    }

    /// A decimal number of seconds, exact to the nanosecond (no floating point).
    private func seconds(_ word: String, line: Int, what: String) throws(ScriptError) -> Duration {
        let parts = word.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0], fraction = parts.count > 1 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty), whole.allSatisfy(\.isASCIIDigit),
              fraction.allSatisfy(\.isASCIIDigit), fraction.count <= 9, whole.count <= 9
        else { throw ScriptError(line: line, "'\(Self.shown(word))' is not a valid \(what) in seconds (e.g. 1, 12.5, 0.030)") }
        let nanos = (Int64(whole) ?? 0) * 1_000_000_000
            + (Int64(fraction + String(repeating: "0", count: 9 - fraction.count)) ?? 0)
        return .nanoseconds(nanos)
    }
}

extension ScriptParser {
    /// A word as an error message quotes it: cut to 40 characters, so a huge token is not
    /// echoed whole.
    static func shown(_ word: String) -> String {
        word.count <= 40 ? word : word.prefix(40) + "… (\(word.utf8.count) bytes)"
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
