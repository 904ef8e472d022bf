/// What a coach lays over the kiosk from outside (the web console, `gymtimer fleet`): a
/// message on the display and the lock of the wall's buttons. Both leave the mode alone: it
/// runs on underneath, and only what the display shows or what the hands can do changes.
extension Kiosk {
    /// How long a locked kiosk says `Loc` when a hand touches it.
    public static let lockedNotice: Duration = .milliseconds(1500)

    /// `effects` with the message, if one is showing, in place of the mode's display (the
    /// message's frame is added where the mode showed something, or where `frameDue`: a scroll
    /// step, a new message; a refused command shows nothing new); once it is over, the mode's
    /// own display comes back.
    mutating func overlaid(_ effects: [Effect], at now: Moment, frameDue: Bool = true) -> [Effect] {
        guard let message else { return effects }
        let others = effects.filter { if case .display = $0 { false } else { true } }
        guard now < message.until else {
            self.message = nil
            if others.count < effects.count { return effects }
            return effects + currentOutputs(at: now).filter { if case .display = $0 { true } else { false } }
        }
        return others + (frameDue || others.count < effects.count ? [.display(message.frame(at: now))] : [])
    }

    /// A hand on a locked kiosk: nothing happens but a short `Loc` (unless a coach's message is showing).
    mutating func lockedOut(_ event: ControlEvent, at now: Moment) -> [Effect] {
        if case .pressed = event, message == nil || message?.text == Self.lockedText {
            message = FloorMessage(text: Self.lockedText, shownAt: now, until: now + Self.lockedNotice)
        }
        return overlaid([], at: now)
    }

    /// What a locked kiosk says.
    static let lockedText = "Loc"

    /// Shows `text` for `seconds` from `now` (checked: `FloorMessage.problem`).
    mutating func show(_ text: String, seconds: Int, at now: Moment) -> Result<[Effect], KioskRefusal> {
        if let problem = FloorMessage.problem(with: text) { return .failure(KioskRefusal("message", problem)) }
        guard FloorMessage.seconds.contains(seconds) else {
            return .failure(KioskRefusal("message", "it may last \(FloorMessage.seconds.lowerBound) to \(FloorMessage.seconds.upperBound) s"))
        }
        message = FloorMessage(text: text, shownAt: now, until: now + .seconds(seconds))
        return .success(overlaid([], at: now))
    }

    /// What a coach set that a restart keeps whatever became of the mode: the lock, the
    /// brightness, the sleep window.
    mutating func keepFloorSettings(of stored: KioskProgress) {
        lockedSince = stored.lockedSince
        brightness = stored.brightness.flatMap { (0...100).contains($0) ? $0 : nil }
        keepSleepWindow(stored.sleepWindow)
    }

    /// Locks (or unlocks) the wall's buttons and knob; the coach's commands still work.
    mutating func lock(_ locked: Bool, at now: Moment) -> [Effect] {
        if locked {
            if lockedSince == nil { lockedSince = now }
        } else {
            lockedSince = nil
            if message?.text == Self.lockedText { message = nil }
        }
        forgetStartPress()
        return overlaid([], at: now)
    }
}

extension ControlEvent {
    /// Whether a hand on the wall made this event (a button or the knob), not the clock or a command.
    var isHand: Bool {
        switch self {
        case .pressed, .released, .held, .turned: return true
        case .deadline, .command, .tapped: return false
        }
    }
}
