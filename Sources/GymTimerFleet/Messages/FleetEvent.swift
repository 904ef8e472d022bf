/// One of a station's `event`s (fleet.md): `{"t":…,"event":NAME,…}`, its fields after `t` and
/// `event` in the order declared here (alphabetical, as the fleet has always written them),
/// each only when the event has it. Made by the static functions, one per kind of event; an
/// event that answers a command carries the command's `id`. `t` is set as it is published.
public struct FleetEvent: Hashable, Sendable, Encodable {
    /// When it was published (Unix time); nil until then (what `FleetStation.onEvent` sees).
    public var t: WireSeconds?
    public var event: String
    /// A start's instant (`scheduled`, `started`).
    public var at: WireSeconds?
    /// The command obeyed (`command`).
    public var verb: String?
    /// The command answered, or the class record followed (`class`).
    public var id: String?
    /// What was finished (`completed`), or what kind of refusal (`error`).
    public var kind: String?
    public var mode: String?
    /// How far a run moved to its class's instants (`class`).
    public var moved: WireSeconds?
    public var paused: Bool?
    public var phase: String?
    public var reason: String?
    public var sets: Int?

    public init(_ event: String) {
        self.event = event
    }

    private enum CodingKeys: String, CodingKey {
        case t, event, at
        case verb = "do"
        case id, kind, mode, moved, paused, phase, reason, sets
    }

    /// The station is connected (told to `onEvent` only: its `status` topic says it).
    public static let online = FleetEvent("online")

    /// A start scheduled at `at` (Unix time).
    public static func scheduled(at: Double) -> FleetEvent {
        var event = FleetEvent("scheduled")
        event.at = WireSeconds(at)
        return event
    }

    /// A scheduled start begun at its instant `at`.
    public static func started(at: Double) -> FleetEvent {
        var event = FleetEvent("started")
        event.at = WireSeconds(at)
        return event
    }

    /// The station's mode or phase changed.
    public static func phase(mode: String, phase: String) -> FleetEvent {
        var event = FleetEvent("phase")
        (event.mode, event.phase) = (mode, phase)
        return event
    }

    /// A workout of `kind` finished with `sets`.
    public static func completed(kind: String, sets: Int) -> FleetEvent {
        var event = FleetEvent("completed")
        (event.kind, event.sets) = (kind, sets)
        return event
    }

    /// A command obeyed (`verb`: its `do`; a `select`'s mode).
    public static func command(_ verb: String, mode: String? = nil) -> FleetEvent {
        var event = FleetEvent("command")
        (event.verb, event.mode) = (verb, mode)
        return event
    }

    /// The run followed its class's record `id`, moved by `moved` seconds.
    public static func classFollowed(id: String, moved: Double, paused: Bool) -> FleetEvent {
        var event = FleetEvent("class")
        (event.id, event.moved, event.paused) = (id, WireSeconds(moved), paused)
        return event
    }

    /// A command refused: the refusal's kind and why.
    public static func error(kind: String, reason: String) -> FleetEvent {
        var event = FleetEvent("error")
        (event.kind, event.reason) = (kind, reason)
        return event
    }

    /// The payload as JSON text.
    public var json: String { FleetJSONEncoder().text(self) }
}
