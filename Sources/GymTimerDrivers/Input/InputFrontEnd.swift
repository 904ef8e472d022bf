import GymTimerCore
import GymTimerHAL

/// Everything between the input lines' raw edges and what a person did: one `ButtonDebouncer`
/// per button line and the knob's `QuadratureDecoder`, keyed by `InputRole`. The kiosk's loop
/// and the self-test both read their inputs through it, so they judge a press alike.
///
/// `feed` takes the edges one wake-up read and returns what became certain, in order. A loop
/// that woke late may hold a press and its release together: each button is settled up to an
/// edge's own moment before that edge is taken, so a press held past the settle time counts
/// even though its release is already there.
public struct InputFrontEnd: Sendable {
    /// How long a button's new level must last to count (contact bounce is shorter).
    public static let defaultSettle: Duration = .milliseconds(10)
    /// How long a press lasts before it is also a hold.
    public static let defaultHold: Duration = .seconds(2)

    /// What a person did, and when.
    public struct Event: Hashable, Sendable {
        public enum Kind: Hashable, Sendable {
            case pressed(InputRole)
            case released(InputRole)
            case held(InputRole)
            /// Knob detents: positive clockwise.
            case turned(Int)
        }

        public var kind: Kind
        /// When it happened: a gesture's settle or hold moment, a detent's last edge.
        public var at: Moment

        public init(_ kind: Kind, at: Moment) {
            self.kind = kind
            self.at = at
        }

        /// The event for the kiosk's core (nil only for a gesture of a line that is no button,
        /// which the front end never reports).
        public var control: ControlEvent? {
            switch kind {
            case .pressed(let role): return role.button.map(ControlEvent.pressed)
            case .released(let role): return role.button.map(ControlEvent.released)
            case .held(let role): return role.button.map(ControlEvent.held)
            case .turned(let detents): return .turned(detents)
            }
        }
    }

    private var debouncers: [InputRole: ButtonDebouncer]
    private var decoder: QuadratureDecoder?

    /// `buttons`: the button lines fitted; `encoder`: the knob's contacts' levels now (read
    /// from the lines), nil when no knob is fitted.
    public init(
        buttons: some Sequence<InputRole>, encoder: (a: Bool, b: Bool)?,
        settle: Duration = Self.defaultSettle, hold: Duration = Self.defaultHold
    ) {
        var debouncers: [InputRole: ButtonDebouncer] = [:]
        for role in buttons where role.button != nil { debouncers[role] = ButtonDebouncer(settle: settle, hold: hold) }
        self.debouncers = debouncers
        decoder = encoder.map { QuadratureDecoder(a: $0.a, b: $0.b) }
    }

    /// Takes up a press a previous controller accepted on `role` (its button is still down).
    public mutating func resume(_ role: InputRole, _ press: HeldPress) {
        debouncers[role]?.resume(press)
    }

    /// The accepted presses still down, to carry across a restart.
    public var heldPresses: [InputRole: HeldPress] { debouncers.compactMapValues(\.heldPress) }

    /// When a debouncer next needs `advance(to:)` (a settle or a hold due), nil for none.
    public var nextDeadline: Moment? { debouncers.values.compactMap(\.nextDeadline).min() }

    /// Takes the edges read at `now` (each dated by its age) and reports what became certain
    /// by `now`, in order. Edges of lines that play no role fitted here are ignored.
    public mutating func feed(_ edges: [InputEdge], at now: Moment) -> [Event] {
        var events: [Event] = []
        for edge in edges {
            guard let role = InputRole(lineName: edge.line) else { continue }
            let moment = now - edge.age
            switch role {
            case .encoderA, .encoderB:
                guard decoder != nil else { continue }
                let detents = decoder!.edge(role == .encoderA ? .a : .b, active: edge.active)
                if detents != 0 { events.append(Event(.turned(detents), at: moment)) }
            default:
                guard debouncers[role] != nil else { continue }
                events += advance(role, to: moment)
                debouncers[role]!.edge(active: edge.active, at: moment)
            }
        }
        for role in debouncers.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            events += advance(role, to: now)
        }
        return events
    }

    /// Reports what became certain by `now` with no new edge (a settle or hold that fell due).
    public mutating func advance(to now: Moment) -> [Event] { feed([], at: now) }

    private mutating func advance(_ role: InputRole, to moment: Moment) -> [Event] {
        debouncers[role]!.advance(to: moment).map { gesture, at in
            switch gesture {
            case .pressed: return Event(.pressed(role), at: at)
            case .released: return Event(.released(role), at: at)
            case .held: return Event(.held(role), at: at)
            }
        }
    }
}
