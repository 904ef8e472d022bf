import GymTimerCore
import GymTimerFleet

/// A class that repeats (CloudFit's "a class every 15 minutes"): the same stations and program,
/// started at `first`, then every `every` seconds, the last one at or before `until`. Each start
/// is sent `lead` seconds ahead as one `start` with its `at` (and the program picked first), as
/// a class started by hand is; a station that is still busy at an instant refuses that one
/// start and takes the next. Pure: `due(now:)` says which starts to send now.
public struct ConsoleSchedule: Hashable, Sendable {
    public var stations: [String]
    public var program: String?
    /// `program`'s definition from the gym's library (`ConsoleAction.definition`), if any.
    public var definition: Program?
    /// The next start's instant (Unix seconds).
    public private(set) var next: Double
    public let every: Double
    public let until: Double
    public let lead: Double

    /// The shortest and longest repeat a coach may ask for, in minutes.
    public static let minutes = 1...240
    /// How far ahead the last start may be (as fleet.md bounds `at`).
    public static let horizon = 86_400.0

    public init(stations: [String], program: String?, definition: Program? = nil, first: Double, every: Double, until: Double, lead: Double) {
        self.stations = stations
        self.program = program
        self.definition = definition
        self.next = first
        self.every = every
        self.until = until
        self.lead = lead
    }

    /// Whether every start has been sent.
    public var isOver: Bool { next > until }

    /// When the next start's commands go out (nil once the schedule is over).
    public var nextSend: Double? { isOver ? nil : next - lead }

    /// The starts whose commands go out at `now` (their instant is `lead` or less away), the
    /// schedule moved past them. A start whose instant has already passed (the console was
    /// stopped, its machine asleep) is skipped, not sent late: a station would refuse it.
    public mutating func due(now: Double) -> [Double] {
        var sending: [Double] = []
        while !isOver, next - lead <= now {
            if next > now { sending.append(next) }
            next += every
        }
        return sending
    }

    /// The command for the start at `at`: a class start that picks the program (refused whole
    /// by a station that is busy or has no such program), or a plain start at `at`.
    public func commands(at: Double) -> [FleetCommand] {
        if let definition { return [.classStart(at: at, runs: .defined(definition))] }
        guard let program else { return [.start(at: at)] }
        return [.classStart(at: at, runs: .named(mode: "program", name: program))]
    }
}
