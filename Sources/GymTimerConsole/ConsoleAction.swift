import Foundation
import GymTimerConfig
import GymTimerFleet
import GymTimerFleetLink

/// An action the page asks for (the JSON body of `POST /api/…`), checked: which stations, and
/// for a class its program and lead-in. Pure: `commands(now:)` says what goes on the wire.
public struct ConsoleAction: Hashable, Sendable {
    public enum Verb: String, Hashable, Sendable, CaseIterable { case `class`, pause, resume, reset }

    public var verb: Verb
    public var stations: [String]
    public var program: String?
    public var lead: Double

    /// The body as the page sends it.
    struct Body: Decodable {
        var stations: [String]?
        var program: String?
        var lead: Double?
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
        guard !stations.isEmpty else { return .failure(.init(description: "choose at least one station")) }
        guard stations.count <= ConsoleFloor.maximumStations, Set(stations).count == stations.count else {
            return .failure(.init(description: "each station once, at most \(ConsoleFloor.maximumStations)"))
        }
        if let bad = stations.first(where: { !FleetSettings.isValidStation($0) }) {
            return .failure(.init(description: "\(FleetCell.quoted(bad, width: 40)) is no station name"))
        }
        var program = decoded.program?.trimmingCharacters(in: .whitespaces)
        if program?.isEmpty == true { program = nil }
        if let name = program, name.utf8.count > 64 || name.contains(where: { $0.isNewline }) {
            return .failure(.init(description: "a program's name is at most 64 bytes on one line"))
        }
        let lead = decoded.lead ?? 10
        guard verb != .class || (lead.isFinite && leads.contains(lead)) else {
            return .failure(.init(description: "the lead-in must be \(Int(leads.lowerBound)) to \(Int(leads.upperBound)) seconds"))
        }
        return .success(ConsoleAction(verb: verb, stations: stations, program: verb == .class ? program : nil, lead: lead))
    }

    /// The commands each station gets, in order: for a class, the program picked (when named)
    /// and one start at `now` + the lead-in, the same instant for every station.
    public func commands(now: Double) -> [FleetCommand] {
        switch verb {
        case .class:
            let start = FleetCommand.start(at: now + lead)
            guard let program else { return [start] }
            return [.select(mode: "program", name: program), start]
        case .pause: return [.pause]
        case .resume: return [.resume]
        case .reset: return [.reset]
        }
    }

    /// What the page says once the commands are queued.
    public func confirmation(at now: Double, offline: [String]) -> String {
        var text: String
        switch verb {
        case .class:
            text = "Class\(program.map { " (\($0))" } ?? "") starts in \(Int(lead.rounded())) s on \(stations.joined(separator: ", "))"
        case .pause: text = "Paused \(stations.joined(separator: ", "))"
        case .resume: text = "Resumed \(stations.joined(separator: ", "))"
        case .reset: text = "Reset \(stations.joined(separator: ", "))"
        }
        if !offline.isEmpty { text += "; offline, will not get it: \(offline.joined(separator: ", "))" }
        return text
    }
}
