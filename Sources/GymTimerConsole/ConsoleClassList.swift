import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerFleet

/// The coach's class list (`POST /api/class-list`, `{"stations":{"rack-1":3,"rack-2":null},
/// "divisions":{"rack-1":"scaled"}}`): which athlete of the roster (by id) trains on which
/// station, `null` for nobody, and in which division when the coach says one. One athlete
/// per station, and one station per athlete, at a time; a class of several rounds sends a new
/// list. Each station gets its own `athlete` command (the card and short name; nobody:
/// `"card":null`), and answers it. Pure: the server sends and waits.
public struct ConsoleClassList: Hashable, Sendable {
    /// One station's line of the list.
    public struct Line: Hashable, Sendable {
        public var station: String
        /// Who, nil: nobody (the station's next workouts are a guest's).
        public var athlete: GymRoster.Athlete?
        /// Rx or Scaled for their next results; nil: not said (a fresh athlete starts Rx, one
        /// already on the station keeps theirs).
        public var division: Division? = nil

        /// The command the station gets.
        public var command: FleetCommand {
            guard let athlete, let card = athlete.cards.first.flatMap(CardID.init(hex:)) else { return .athlete(nil) }
            return .athlete(CardTap(card: card, shortName: athlete.short, division: division))
        }

        /// `Anna on rack-1`, `Ben on rack-2 (Scaled)`, `nobody on rack-3`.
        public var said: String {
            "\(athlete?.name ?? "nobody") on \(station)" + (division.map { $0 == .rx ? " (Rx)" : " (Scaled)" } ?? "")
        }
    }

    /// In the order of the stations' names.
    public var lines: [Line]

    struct Body: Decodable {
        var stations: [String: Int64?]
        var divisions: [String: Division]?
    }

    /// `body` checked against the roster's `athletes` (the collector's answer); the refusal says what to change.
    public static func parse(_ body: [UInt8], athletes: [GymRoster.Athlete]) -> Result<ConsoleClassList, ConsolePIN.Problem> {
        guard let decoded = try? JSONDecoder().decode(Body.self, from: Data(body)) else {
            return .failure(.init(description: "the request is not the JSON the page sends"))
        }
        guard !decoded.stations.isEmpty else { return .failure(.init(description: "choose at least one station")) }
        guard decoded.stations.count <= ConsoleFloor.maximumStations else {
            return .failure(.init(description: "at most \(ConsoleFloor.maximumStations) stations"))
        }
        var lines: [Line] = []
        var placed: [Int64: String] = [:]
        for (station, id) in decoded.stations.sorted(by: { $0.key < $1.key }) {
            guard FleetSettings.isValidStation(station) else {
                return .failure(.init(description: "\(FleetCell.quoted(station, width: 40)) is no station name"))
            }
            guard let id else {
                lines.append(Line(station: station, athlete: nil))
                continue
            }
            guard let athlete = athletes.first(where: { $0.id == id }) else {
                return .failure(.init(description: "no such athlete in the roster for \(station) (reload the page)"))
            }
            guard !athlete.cards.isEmpty else { return .failure(.init(description: "\(athlete.name) has no card")) }
            if let other = placed[id] {
                return .failure(.init(description: "\(athlete.name) is on \(other) and \(station): one station each"))
            }
            placed[id] = station
            lines.append(Line(station: station, athlete: athlete, division: decoded.divisions?[station]))
        }
        if let stray = decoded.divisions?.keys.sorted().first(where: { station in !lines.contains { $0.station == station && $0.athlete != nil } }) {
            return .failure(.init(description: "a division for \(FleetCell.quoted(stray, width: 40)), where nobody is put"))
        }
        return .success(ConsoleClassList(lines: lines))
    }

    /// What the page says once the stations answered (`answers`: one per line's station, nil
    /// for one not sent, with `notSent` its reason): who is on which station where it was done,
    /// then each refusal with its reason, who did not answer, who was offline or not sent to.
    public func report(answers: [String: FleetAnswers], offline: [String], notSent: [String: String] = [:]) -> String {
        let done = lines.filter { answers[$0.station]?.done.contains($0.station) == true }
        var parts = [done.isEmpty ? "Not done anywhere" : "On the stations: " + done.map(\.said).joined(separator: ", ")]
        let asked = lines.compactMap { answers[$0.station] }
        parts += FleetAnswers.refusals(in: asked)
        let silent = asked.flatMap(\.silent)
        if !silent.isEmpty { parts.append("no answer from \(silent.joined(separator: ", "))") }
        if !offline.isEmpty { parts.append("offline, will not get it: \(offline.joined(separator: ", "))") }
        for (station, reason) in notSent.sorted(by: { $0.key < $1.key }) { parts.append("not sent to \(station): \(reason)") }
        return parts.joined(separator: "; ")
    }
}
