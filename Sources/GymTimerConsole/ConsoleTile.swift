import Foundation
import GymTimerCore
import GymTimerFleet

/// One station's tile on the console's page, as the page reads it (JSON over Server-Sent
/// Events): what its retained `status` and `state` say, every text bounded and stripped of
/// control characters (`FleetCell`); the page puts each one in as text, never as markup.
/// The browser counts `deadline` down itself, so a state published once a phase keeps the
/// tile's digits moving.
public struct ConsoleTile: Hashable, Sendable, Codable {
    public var name: String
    public var online: Bool
    public var mode: String
    public var program: String?
    public var phase: String
    /// When the running countdown ends (Unix seconds); nil when none runs or the station is offline.
    public var deadline: Double?
    /// The Unix instant of a class start the station has scheduled: the tile counts down to it
    /// while nothing else counts.
    public var startsAt: Double? = nil
    /// What is left of a paused countdown (seconds).
    public var remaining: Double?
    /// What the display showed when the state was published (a count-up, a label).
    public var display: String?
    public var round: Int?
    public var sets: Int?
    /// A finished program's score, as the station's state says it.
    public var result: String? = nil
    /// Why the station refused a command in the last minute (its `error` event), if it did.
    public var refusal: String? = nil
    /// Whether a coach has locked the station's wall buttons.
    public var locked: Bool = false
    /// The station's sleep window as `HH:MM–HH:MM` (nil: none), and whether its display sleeps now.
    public var sleep: String? = nil
    public var asleep: Bool = false
    /// The programs of the station's own config, by name (at most `maximumPrograms`, each a
    /// valid program name): what a class may name without the gym's library.
    public var programs: [String] = []
    /// Whether the station spoke since the console connected (a message the broker did not
    /// replay from its retained store: an answer to the console's ping, a state change). Only
    /// such stations are ticked for a class by default: a name someone left in a retained
    /// message is shown, never chosen.
    public var live: Bool = false
    /// The card of the athlete on the station (its `P/S/athlete`: a tap or the class list),
    /// only when it is a card (its pseudonym); the coach's page names it from the roster.
    public var athlete: String? = nil

    /// The tile of station `name` from what the broker retained for it; `status` nil when only
    /// its state was seen. A number that is no time a station counts (NaN, ±∞, beyond a day
    /// from `now`) is left out rather than shown.
    public static func make(name: String, status: String?, state: JSONValue?, now: Double) -> ConsoleTile {
        var fields: [String: JSONValue] = [:]
        if case .object(let object)? = state { fields = object }
        let online = status == "online"
        func text(_ key: String, width: Int) -> String? { fields[key]?.string.map { FleetCell.text($0, width: width) } }
        func whole(_ key: String) -> Int? {
            guard let value = fields[key]?.number, value.isFinite, abs(value) < 1_000_000 else { return nil }
            return Int(value)
        }
        let deadline = fields["deadline"]?.number.flatMap { $0.isFinite && abs($0 - now) <= 86_400 ? $0 : nil }
        let startsAt = fields["starts_at"]?.number.flatMap { $0.isFinite && abs($0 - now) <= 86_400 ? $0 : nil }
        let remaining = fields["remaining"]?.number.flatMap { $0.isFinite && $0 >= 0 && $0 <= 86_400 ? $0 : nil }
        return ConsoleTile(
            name: FleetCell.text(name, width: 32), online: online, mode: text("mode", width: 12) ?? "-",
            program: text("program", width: 32), phase: text("phase", width: 16) ?? "-",
            deadline: online ? deadline : nil, startsAt: online ? startsAt : nil, remaining: online ? remaining : nil, display: text("display", width: 8),
            round: whole("round"), sets: whole("sets"), result: text("result", width: 32), locked: fields["locked"] == .bool(true),
            sleep: SleepWindow.text(ofState: fields["sleep"]), asleep: online && fields["asleep"] == .bool(true),
            programs: programs(fields["programs"]))
    }

    /// The most program names a tile carries (a config's own are far fewer).
    public static let maximumPrograms = 50

    /// A state's `programs`: its names that are valid program names, at most `maximumPrograms`.
    static func programs(_ value: JSONValue?) -> [String] {
        guard case .array(let list)? = value else { return [] }
        let names = list.compactMap { $0.string }.filter { Program.nameProblem($0) == nil }
        return Array(names.prefix(maximumPrograms))
    }
}
