/// The answers to one command sent to several stations, as they arrive: who did it, who
/// refused it and why, who has not answered, and who was offline when it was sent — what the
/// console and `gymtimer fleet` report, so that a refusal is never called a success. Pure: the
/// sender feeds it the stations' events.
public struct FleetAnswers: Hashable, Sendable {
    /// The id the command carried.
    public let id: String
    /// The stations it was sent to that were online: each must answer.
    public let asked: [String]
    /// The stations it was for that were offline when it was sent (they will not get it).
    public let offline: [String]
    /// The answers so far, by station (a later answer under the same id replaces an earlier
    /// one: a start scheduled, then refused at its instant).
    public private(set) var answers: [String: FleetAnswer] = [:]

    public init(id: String, asked: [String], offline: [String]) {
        self.id = id
        self.asked = asked
        self.offline = offline
    }

    /// Takes in an event `station` published; says whether it answered this command.
    @discardableResult
    public mutating func take(event payload: [UInt8], from station: String) -> Bool {
        guard asked.contains(station), let (id, answer) = FleetAnswer.parse(event: payload), id == self.id else { return false }
        answers[station] = answer
        return true
    }

    /// Whether every station asked has answered.
    public var isComplete: Bool { asked.allSatisfy { answers[$0] != nil } }

    /// The stations that did it, in the order asked.
    public var done: [String] { asked.filter { answers[$0] == .done } }

    /// The stations that refused it and why, in the order asked.
    public var refused: [(station: String, reason: String)] {
        asked.compactMap { station in
            if case .refused(let reason)? = answers[station] { (station, reason) } else { nil }
        }
    }

    /// The stations asked that have not answered.
    public var silent: [String] { asked.filter { answers[$0] == nil } }

    /// Whether every station it was for did it: none refused, none silent, none offline.
    public var succeeded: Bool { offline.isEmpty && asked.allSatisfy { answers[$0] == .done } }

    /// One line of what happened, e.g. `done on rack-1, rack-2; refused on rack-3: "start" not
    /// allowed now: the station is busy (finished); no answer from rack-4; offline: rack-5`.
    /// Stations refusing for the same reason are named together. `done` names the success
    /// (`done`, `scheduled`, `paused`…).
    /// Each refusal among `answers` as `refused on rack-2, rack-3: why`, stations refusing for
    /// one reason named together (each once), in the order first seen.
    public static func refusals(in answers: [FleetAnswers]) -> [String] {
        var reasons: [String] = []
        var byReason: [String: [String]] = [:]
        for answer in answers {
            for (station, reason) in answer.refused {
                if byReason[reason] == nil { reasons.append(reason) }
                if byReason[reason]?.contains(station) != true { byReason[reason, default: []].append(station) }
            }
        }
        return reasons.map { "refused on \(byReason[$0]!.joined(separator: ", ")): \($0)" }
    }

    public func summary(done verb: String = "done") -> String {
        var parts: [String] = []
        if !done.isEmpty { parts.append("\(verb) on \(done.joined(separator: ", "))") }
        parts += Self.refusals(in: [self])
        if !silent.isEmpty { parts.append("no answer from \(silent.joined(separator: ", "))") }
        if !offline.isEmpty { parts.append("offline: \(offline.joined(separator: ", "))") }
        return parts.isEmpty ? "no station was asked" : parts.joined(separator: "; ")
    }
}
