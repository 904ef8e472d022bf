import GymTimerCore
import GymTimerDrivers
import GymTimerHAL

/// The devices a kiosk runs on, real or simulated: the runtime sees only these protocols.
public struct KioskDevices {
    /// Where the loop blocks for input edges.
    public var waiter: any InputWaiter
    /// The input lines by the job they do: the buttons fitted and the knob's two contacts (read
    /// once at start-up, for their resting levels and whether a stored press is still down).
    /// The waiter reports their edges under `InputRole.lineName`.
    public var inputs: [InputRole: any DigitalInput]
    public var display: any SegmentDisplay
    public var buzzer: any DigitalOutput
    public var leds: [StatusLED: any DigitalOutput]
    public var sound: any SoundPlayer
    /// The NFC reader's taps, when one is fitted (the waiter polls it among its sources).
    public var cards: CardTapSource?

    public init(
        waiter: any InputWaiter, inputs: [InputRole: any DigitalInput],
        display: any SegmentDisplay, buzzer: any DigitalOutput,
        leds: [StatusLED: any DigitalOutput], sound: any SoundPlayer, cards: CardTapSource? = nil
    ) {
        self.cards = cards
        self.waiter = waiter
        self.inputs = inputs
        self.display = display
        self.buzzer = buzzer
        self.leds = leds
        self.sound = sound
    }
}
