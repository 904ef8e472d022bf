import GymTimerCore
import GymTimerDrivers
import GymTimerHAL

/// The devices a kiosk runs on, real or simulated: the runtime sees only these protocols.
public struct KioskDevices {
    /// Where the loop blocks for input edges.
    public var waiter: any InputWaiter
    /// Which input line (by name) is which button.
    public var buttons: [String: ControlButton]
    /// The encoder's two lines, read once at start-up for their resting levels.
    public var encoder: (a: any DigitalInput, b: any DigitalInput)?
    /// The button lines by name, read at start-up to tell whether a stored press is still down.
    public var buttonLines: [String: any DigitalInput]
    public var display: any SegmentDisplay
    public var buzzer: any DigitalOutput
    public var leds: [StatusLED: any DigitalOutput]
    public var sound: any SoundPlayer

    public init(
        waiter: any InputWaiter, buttons: [String: ControlButton],
        encoder: (a: any DigitalInput, b: any DigitalInput)?,
        display: any SegmentDisplay, buzzer: any DigitalOutput,
        leds: [StatusLED: any DigitalOutput], sound: any SoundPlayer, buttonLines: [String: any DigitalInput] = [:]
    ) {
        self.buttonLines = buttonLines
        self.waiter = waiter
        self.buttons = buttons
        self.encoder = encoder
        self.display = display
        self.buzzer = buzzer
        self.leds = leds
        self.sound = sound
    }
}
