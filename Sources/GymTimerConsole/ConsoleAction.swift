import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerFleet

/// An action the page asks for (the JSON body of `POST /api/…`), checked: which stations, and
/// for a class its program and lead-in, for a message its text and length, for brightness its
/// percentage; an upgrade (`upgrade`, from the health view) takes only its stations, each of which
/// decides whether it can and says why not. Pure: `commands(now:)` says what goes on the wire.
public struct ConsoleAction: Hashable, Sendable {
    public enum Verb: String, Hashable, Sendable, CaseIterable { case `class`, callOff = "call-off", pause, resume, reset, message, lock, unlock, brightness, sleep, `repeat`, stopRepeating = "stop-repeating", upgrade }

    public var verb: Verb
    public var stations: [String]
    public var program: String?
    /// The definition of `program` when the gym's library has it (`ConsoleLibrary`): the class
    /// carries it, so stations run it whatever their configs hold; nil: by name.
    public var definition: Program?
    public var lead: Double
    /// A message's text and how long it shows (`message`).
    public var text: String?
    public var seconds: Int
    /// The displays' brightness (`brightness`).
    public var percent: Int?
    /// The displays' sleep window (`sleep`); nil with `sleep`: none.
    public var sleepWindow: SleepWindow?
    /// A repeating class: every so many minutes, until this Unix time (`repeat`).
    public var everyMinutes: Int?
    public var until: Double?
    /// A class: start on the stations that are ready even if others refuse or do not answer
    /// (otherwise the whole class starts or none of it).
    public var startReady = false

    /// The body as the page sends it.
    struct Body: Decodable {
        var stations: [String]?
        var program: String?
        var lead: Double?
        var text: String?
        var seconds: Double?
        var percent: Double?
        var every: Double?
        var until: Double?
        /// A sleep window's times (`HH:MM`), or `sleepOff`.
        var sleepFrom: String?
        var sleepUntil: String?
        var sleepOff: Bool?
        var startReady: Bool?
    }

    /// The lead-in's bounds: long enough for the command to reach every station, short enough
    /// to be a class start (fleet.md allows up to 24 h; the console's coach is in the room).
    public static let leads = 3.0...600.0

    /// `body` for `verb`, checked; the refusal says what to change.
    public static func parse(_ verb: Verb, body: [UInt8]) -> Result<ConsoleAction, ConsolePIN.Problem> {
        guard let decoded = try? JSONDecoder().decode(Body.self, from: Data(body)) else {
            return .failure(.init(description: "the request is not the JSON the page sends"))
        }
        let stations = decoded.stations ?? []
        guard !stations.isEmpty || verb == .stopRepeating else { return .failure(.init(description: "choose at least one station")) }
        guard stations.count <= ConsoleFloor.maximumStations, Set(stations).count == stations.count else {
            return .failure(.init(description: "each station once, at most \(ConsoleFloor.maximumStations)"))
        }
        if let bad = stations.first(where: { !FleetSettings.isValidStation($0) }) {
            return .failure(.init(description: "\(FleetCell.quoted(bad, width: 40)) is no station name"))
        }
        var program = decoded.program?.trimmingCharacters(in: .whitespaces)
        if program?.isEmpty == true { program = nil }
        if let name = program, let problem = NameText.problem(name) {
            return .failure(.init(description: "the program's name \(NameText.quoted(String(name.prefix(40)))) \(problem)"))
        }
        if let name = program, name.utf8.count > 64 || name.contains(where: { $0.isNewline }) {
            return .failure(.init(description: "a program's name is at most 64 bytes on one line"))
        }
        let lead = decoded.lead ?? 10
        guard (verb != .class && verb != .repeat) || (lead.isFinite && leads.contains(lead)) else {
            return .failure(.init(description: "the lead-in must be \(Int(leads.lowerBound)) to \(Int(leads.upperBound)) seconds"))
        }
        var action = ConsoleAction(
            verb: verb, stations: stations, program: verb == .class || verb == .repeat ? program : nil, lead: lead)
        action.startReady = verb == .class && decoded.startReady == true
        if let problem = action.read(decoded) { return .failure(problem) }
        return .success(action)
    }

    /// What `verb` alone takes from the page's `decoded` body (a message's text, a brightness,
    /// a sleep window, a repeat's period): set on this action, or the problem with it.
    private mutating func read(_ decoded: Body) -> ConsolePIN.Problem? {
        switch verb {
        case .message:
            // The station checks the text again (FloorMessage): this is the page's early, clear answer.
            guard let text = decoded.text else { return .init(description: "write the message to show") }
            if let problem = FloorMessage.problem(with: text) { return .init(description: "the message: \(problem)") }
            let seconds = decoded.seconds ?? Double(FleetCommand.defaultMessageSeconds)
            guard seconds.isFinite, seconds.rounded() == seconds, FloorMessage.seconds.contains(Int(exactly: seconds) ?? 0) else {
                return .init(description: "a message shows for 1 to 60 seconds")
            }
            self.text = text
            self.seconds = Int(seconds)
        case .brightness:
            guard let percent = decoded.percent, percent.isFinite, percent.rounded() == percent, (0...100).contains(percent) else {
                return .init(description: "the brightness is a whole percentage, 0 to 100")
            }
            self.percent = Int(percent)
        case .sleep:
            if decoded.sleepOff == true { break }
            guard let from = decoded.sleepFrom, let until = decoded.sleepUntil else {
                return .init(description: "give the sleep window's two times, or turn it off")
            }
            switch SleepWindow.parse(from: from, until: until) {
            case .success(let window): sleepWindow = window
            case .failure(let refusal): return .init(description: "the sleep window: \(refusal.reason)")
            }
        case .repeat:
            guard let every = decoded.every, every.isFinite, every.rounded() == every,
                  ConsoleSchedule.minutes.contains(Int(exactly: every) ?? 0) else {
                return .init(description: "repeat every \(ConsoleSchedule.minutes.lowerBound) to \(ConsoleSchedule.minutes.upperBound) minutes")
            }
            guard let until = decoded.until, until.isFinite else { return .init(description: "say until when it repeats") }
            everyMinutes = Int(every)
            self.until = until
        default:
            break
        }
        return nil
    }

    public init(verb: Verb, stations: [String], program: String? = nil, lead: Double = 10, text: String? = nil, seconds: Int = 10, percent: Int? = nil) {
        self.verb = verb
        self.stations = stations
        self.program = program
        self.lead = lead
        self.text = text
        self.seconds = seconds
        self.percent = percent
    }

    /// The commands each station gets, in order: for a class, one start at `now` + the
    /// lead-in, the same instant for every station, that picks the program when one is named
    /// (a station that is busy or has no such program refuses it whole).
    public func commands(now: Double) -> [FleetCommand] {
        switch verb {
        case .class:
            guard let runs else { return [.start(at: now + lead)] }
            return [.classStart(at: now + lead, runs: runs)]
        case .callOff: return [.cancel]
        case .pause: return [.pause]
        case .resume: return [.resume]
        case .reset: return [.reset]
        case .message: return text.map { [.message(text: $0, seconds: seconds)] } ?? []
        case .lock: return [.lock]
        case .unlock: return [.unlock]
        case .brightness: return percent.map { [.brightness(percent: $0)] } ?? []
        case .sleep: return [.sleep(sleepWindow)]
        case .repeat: return schedule(now: now).map { $0.commands(at: $0.next) } ?? []
        case .stopRepeating: return []
        case .upgrade: return [.upgrade]
        }
    }

    /// What a class runs on the stations: the library's definition, else the program by name.
    public var runs: FleetClassProgram? {
        if let definition { return .defined(definition) }
        return program.map { .named(mode: "program", name: $0) }
    }

    /// The repeating class (`repeat`) asked for at `now`: its first start `lead` from now, then
    /// every `everyMinutes`, until `until`; nil when `until` comes before the second start (it
    /// would not repeat: what the page says must be what runs; an end already past is refused,
    /// never taken for tomorrow) or more than a day ahead.
    public func schedule(now: Double) -> ConsoleSchedule? {
        guard verb == .repeat, let everyMinutes, let until, until >= now + lead + Double(everyMinutes) * 60,
              until <= now + ConsoleSchedule.horizon else { return nil }
        return ConsoleSchedule(
            stations: stations, program: program, definition: definition, first: now + lead, every: Double(everyMinutes) * 60, until: until, lead: lead)
    }

    /// `unix` as the console machine's local HH:MM.
    static func clock(_ unix: Double) -> String {
        let date = Date(timeIntervalSince1970: unix)
        let parts = Calendar.current.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// What the page says when every station did it: the action on `stations`.
    public func confirmation(at now: Double, on stations: [String]) -> String {
        let names = stations.joined(separator: ", ")
        switch verb {
        case .class:
            return "Class\(program.map { " (\($0))" } ?? "") starts in \(Int(lead.rounded())) s on \(names)"
        case .callOff: return "Start called off on \(names)"
        case .pause: return "Paused \(names)"
        case .resume: return "Resumed \(names)"
        case .reset: return "Ended without recording on \(names)"
        case .message: return "Showing \(text ?? "") for \(seconds) s on \(names)"
        case .lock: return "Buttons locked on \(names)"
        case .unlock: return "Buttons unlocked on \(names)"
        case .brightness: return "Brightness \(percent ?? 0) % on \(names)"
        case .sleep:
            return (sleepWindow.map { "Displays sleep \($0) (station time)" } ?? "No sleep window") + " on \(names)"
        case .repeat:
            return "Class\(program.map { " (\($0))" } ?? "") starts in \(Int(lead.rounded())) s on \(names), "
                + "then every \(everyMinutes ?? 0) min until \(Self.clock(until ?? now))"
        case .stopRepeating: return "Repeating classes stopped"
        case .upgrade: return "Upgrade asked for on \(names): each upgrades once idle"
        }
    }

    /// What the page says once the stations answered (`answers`: one per command sent, in
    /// order): the action on the stations that did every command, then each refusal with its
    /// reason (stations refusing for one reason named together), who did not answer, and who
    /// was offline. Never the action on a station that refused or did not answer.
    /// A class that not every station was ready for is called off where it was scheduled
    /// (`calledOff`: the answers to that `cancel`): the line says so first, then why.
    public func report(at now: Double, answers: [FleetAnswers], offline: [String], calledOff: FleetAnswers? = nil) -> String {
        let asked = stations.filter { !offline.contains($0) }
        let done = asked.filter { station in !answers.isEmpty && answers.allSatisfy { $0.answers[station] == .done } }
        var parts: [String]
        switch verb {
        case .class where calledOff != nil:
            parts = ["Class not started: not every station was ready (tick \"start on the ready ones\" to start without them)"]
        case .stopRepeating: parts = [confirmation(at: now, on: [])]
        case .repeat where done.isEmpty:
            // The later starts are still sent as they fall due; only the first was not done.
            parts = ["Class\(program.map { " (\($0))" } ?? "") repeats every \(everyMinutes ?? 0) min until \(Self.clock(until ?? now)); "
                + "its first start was not done anywhere"]
        default: parts = [done.isEmpty ? "Not done anywhere" : confirmation(at: now, on: done)]
        }
        parts += FleetAnswers.refusals(in: answers)
        let refusedAny = Set(answers.flatMap { $0.refused.map(\.station) })
        let silent = asked.filter { station in
            !done.contains(station) && !refusedAny.contains(station) && answers.contains { $0.answers[station] == nil }
        }
        if !silent.isEmpty { parts.append("no answer from \(silent.joined(separator: ", "))") }
        if !offline.isEmpty { parts.append("offline, will not get it: \(offline.joined(separator: ", "))") }
        if let calledOff {
            if !calledOff.done.isEmpty { parts.append("called off on \(calledOff.done.joined(separator: ", "))") }
            for (station, reason) in calledOff.refused { parts.append("could not call it off on \(station): \(reason)") }
            if !calledOff.silent.isEmpty { parts.append("no answer to the call-off from \(calledOff.silent.joined(separator: ", "))") }
        }
        return parts.joined(separator: "; ")
    }
}
