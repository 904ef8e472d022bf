/// A short text a coach flashes on the display (the web console's "say something to the
/// floor", `{"do":"message"}`), shown over whatever the mode shows until `until`, then the
/// mode's own display comes back. The mode runs on underneath: its countdown, cues and LEDs
/// are untouched. Four characters or fewer stand still; a longer text scrolls through the four
/// digits from the right, one character every `scrollStep`, again and again.
public struct FloorMessage: Hashable, Sendable, Codable {
    /// The text, only characters a 7-segment digit draws (`DisplayContent.canDraw` per character).
    public let text: String
    public let shownAt: Moment
    public let until: Moment

    /// How long each scroll position stands.
    public static let scrollStep: Duration = .milliseconds(350)
    /// The longest text and the longest time a message may ask for.
    public static let maximumLength = 64
    public static let seconds: ClosedRange<Int> = 1...60

    public init(text: String, shownAt: Moment, until: Moment) {
        self.text = text
        self.shownAt = shownAt
        self.until = until
    }

    /// Why `text` cannot be shown, or nil: too long, empty, or a character no digit draws.
    public static func problem(with text: String) -> String? {
        guard !text.isEmpty else { return "the text is empty" }
        guard text.count <= maximumLength else { return "the text is longer than \(maximumLength) characters" }
        if let bad = text.first(where: { !DisplayContent.canDraw(String($0)) }) {
            return "'\(bad.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } ? String(bad) : "?")' cannot be drawn on a 7-segment digit"
        }
        return nil
    }

    /// The characters the digits pass through while scrolling: four dark digits, the text, four dark.
    private var tape: [Character] { Array("    " + text + "    ") }

    /// What the display shows at `now` (while the message lasts).
    public func frame(at now: Moment) -> DisplayContent {
        guard text.count > 4 else {
            let padding = (4 - text.count) / 2
            return DisplayContent(text: String(repeating: " ", count: padding) + text)
        }
        let positions = tape.count - 3
        let step = max(0, (now - shownAt).nanoseconds / Self.scrollStep.nanoseconds)
        let first = Int(step % Int64(positions))
        return DisplayContent(text: String(tape[first..<first + 4]))
    }

    /// When the display must change next after `now`: the next scroll step, or the end.
    public func nextChange(after now: Moment) -> Moment {
        guard text.count > 4 else { return until }
        let elapsed = max(0, (now - shownAt).nanoseconds)
        let next = shownAt + .nanoseconds((elapsed / Self.scrollStep.nanoseconds + 1) * Self.scrollStep.nanoseconds)
        return min(next, until)
    }
}
