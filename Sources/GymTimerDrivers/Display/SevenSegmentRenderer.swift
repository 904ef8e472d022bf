import GymTimerCore
import GymTimerHAL
import GymTimerSystem

/// Renders `DisplayContent` onto a `SegmentDisplay`: characters to segments, the colon, and
/// blinking at 2 Hz (250 ms lit, 250 ms dark, starting lit). It is the one place that knows
/// what the display shows: content it is already showing is ignored (a blink goes on in its
/// phase) and frames are written only when they change, the first always; a failed write is
/// logged once and retried every second until it works.
public final class SevenSegmentRenderer: TimedDriver {
    /// Half a blink period.
    public static let blinkHalfPeriod = Duration.milliseconds(250)
    static let retryInterval = Duration.seconds(1)

    private let display: any SegmentDisplay
    private let faults: FaultLog
    private let deviceName: String
    /// What the display is told to show; nil until the first `show`.
    /// What the display is showing (or showed last, if its writes are failing); nil before the first.
    public private(set) var content: DisplayContent?
    private var blinkStartedAt = Moment.origin
    private var lastFrame: SegmentFrame?
    private var retryAt: Moment?

    public init(display: any SegmentDisplay, faults: FaultLog, deviceName: String = "display") {
        self.display = display
        self.faults = faults
        self.deviceName = deviceName
    }

    /// Shows `content` from `now` on; a blink starts lit. The content already shown changes
    /// nothing.
    public func show(_ content: DisplayContent, at now: Moment) {
        guard content != self.content else { return }
        self.content = content
        blinkStartedAt = now
        write(at: now)
    }

    /// Sets the display's brightness (percent); a failure is logged, and the display keeps
    /// the brightness it had.
    public func setBrightness(percent: Int) {
        _ = faults.attempt(deviceName) { try display.setBrightness(Double(max(0, min(percent, 100))) / 100) }
    }

    /// The frame `content` gives at `now`, blinking included.
    public func frame(at now: Moment) -> SegmentFrame {
        let content = self.content ?? .blank
        // The font is looked up once per text: a countdown writes a frame every second and
        // a blink every 250 ms, mostly of a text already rendered.
        if content.text != renderedText {
            renderedDigits = SevenSegmentFont.render(content.text)
            renderedText = content.text
        }
        let digits = renderedDigits
        let lit = content.blink == .none || isBlinkLit(at: now)
        switch content.blink {
        case .all where !lit: return .dark
        case .colon where !lit: return SegmentFrame(digits: digits, colon: false)
        default: return SegmentFrame(digits: digits, colon: content.colon)
        }
    }

    public var nextDeadline: Moment? {
        var next = retryAt
        if let content, content.blink != .none, let last = lastWriteMoment {
            let half = Self.blinkHalfPeriod.nanoseconds
            let elapsed = (last - blinkStartedAt).nanoseconds
            let toggle = blinkStartedAt + .nanoseconds((elapsed / half + 1) * half)
            next = next.map { min($0, toggle) } ?? toggle
        }
        return next
    }

    public func fire(at now: Moment) { write(at: now) }

    /// When the display was last brought up to date (the blink phase is computed from it).
    private var lastWriteMoment: Moment?
    /// The text `renderedDigits` are the font's segments for (nil: none yet).
    private var renderedText: String?
    private var renderedDigits: [UInt8] = []

    private func isBlinkLit(at now: Moment) -> Bool {
        let halves = (now - blinkStartedAt).nanoseconds / Self.blinkHalfPeriod.nanoseconds
        return halves % 2 == 0
    }

    private func write(at now: Moment) {
        lastWriteMoment = now
        let next = frame(at: now)
        guard next != lastFrame || retryAt != nil else { return }
        if faults.attempt(deviceName, { try display.show(next) }) != nil {
            lastFrame = next
            retryAt = nil
        } else {
            retryAt = now + Self.retryInterval
        }
    }
}
