/// The physical buttons. `start` and `dismiss` are on every kiosk.
public enum ControlButton: String, CaseIterable, Hashable, Sendable, Codable {
    case start, dismiss
}

/// An input the core reacts to, already debounced and decoded by the drivers.
public enum ControlEvent: Hashable, Sendable {
    /// A debounced press.
    case pressed(ControlButton)
    /// The button went back up.
    case released(ControlButton)
    /// The button has been held down for the hold time (2 s) since its press.
    case held(ControlButton)
    /// The knob turned this many detents (negative: counter-clockwise).
    case turned(Int)
    /// A deadline the core asked for (see `nextDeadline`) has arrived.
    case deadline
    /// A command from outside (the fleet), with its own meaning (see `KioskCommand`).
    case command(KioskCommand)
    /// A card held to the station's reader (`Kiosk+Athlete`): its athlete taps in or out.
    case tapped(CardTap)
}
