/// The whole kiosk as one pure state machine: the active mode plus what is on the outputs.
///
/// The runtime feeds it debounced events and the deadlines it asked for, and carries out the
/// effects it returns. Display and LED effects that would not change anything are dropped here,
/// so the drivers only see real changes.
public struct Kiosk: Hashable, Sendable, Codable {
    /// The job the kiosk is doing.
    public enum Mode: Hashable, Sendable, Codable {
        case rest(RestMode)
    }

    public private(set) var mode: Mode
    /// What the display was last told to show.
    public private(set) var shownDisplay: DisplayContent?
    /// Which LEDs were last told to be lit.
    public private(set) var shownLEDs: Set<StatusLED>?

    public init(settings: KioskSettings) {
        self.mode = .rest(RestMode(settings: settings.rest))
    }

    /// The outputs to show at start-up (or after being rebuilt from stored state).
    public mutating func start(at now: Moment) -> [Effect] {
        shownDisplay = nil
        shownLEDs = nil
        return filter(currentOutputs(at: now))
    }

    /// Reacts to one event at `now`, returning the effects to carry out in order.
    public mutating func handle(_ event: ControlEvent, at now: Moment) -> [Effect] {
        switch mode {
        case .rest(var rest):
            let effects = rest.handle(event, at: now)
            mode = .rest(rest)
            return filter(effects)
        }
    }

    /// When the kiosk must next be woken with `.deadline`, or nil to wait for input alone.
    public func nextDeadline(after now: Moment) -> Moment? {
        switch mode {
        case .rest(let rest): return rest.nextDeadline(after: now)
        }
    }

    private func currentOutputs(at now: Moment) -> [Effect] {
        switch mode {
        case .rest(let rest): return rest.currentOutputs(at: now)
        }
    }

    /// Drops display and LED effects that repeat what is already shown.
    private mutating func filter(_ effects: [Effect]) -> [Effect] {
        effects.filter { effect in
            switch effect {
            case .display(let content):
                guard content != shownDisplay else { return false }
                shownDisplay = content
            case .leds(let lit):
                guard lit != shownLEDs else { return false }
                shownLEDs = lit
            default:
                break
            }
            return true
        }
    }
}
