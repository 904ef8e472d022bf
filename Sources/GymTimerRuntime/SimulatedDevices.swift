import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerSimulation

/// The simulated kiosk's outputs — display, buzzer, status LEDs, sound — and how they and a
/// set of simulated inputs make the `KioskDevices` the runtime sees. The scripted and the
/// terminal simulation wire the kiosk the same way through this; each observes the outputs
/// with the devices' `onFrame` / `onChange` callbacks.
public final class SimulatedDevices {
    /// The plain simulated display, or the real driver over a simulated chip.
    public let display: any SimulatedDisplay
    public let buzzer = SimulatedLine(name: "buzzer")
    public let leds: [StatusLED: SimulatedLine]
    public let sound = SimulatedSoundPlayer()

    /// `display` picks the display as the config's `hardware.display.type` does: a TM1637,
    /// HT16K33 or MAX7219 is its real driver over the simulated chip (reporting what the chip
    /// decoded, once per complete frame); `none` is the plain simulated display. With
    /// `audio` false (`[audio] enabled = false`) the sound output is never available, so the
    /// cues go to the buzzer as on a kiosk whose speaker is turned off.
    public init(display kind: DisplayHardware.Kind = .none, audio: Bool = true) {
        sound.isAvailable = audio
        switch kind {
        case .tm1637: display = SimulatedChipDisplay(chip: .tm1637)
        case .ht16k33: display = SimulatedChipDisplay(chip: .ht16k33)
        case .max7219: display = SimulatedChipDisplay(chip: .max7219)
        case .none: display = SimulatedSegmentDisplay()
        }
        var leds: [StatusLED: SimulatedLine] = [:]
        for led in StatusLED.allCases { leds[led] = SimulatedLine(name: "led-\(led.rawValue)") }
        self.leds = leds
    }

    /// The button line names, one per `ControlButton`.
    public static var buttonNames: [String] { ControlButton.allCases.map(\.rawValue) }

    /// The devices for a runtime fed by `inputs` (its lines named as in `InputGestures`).
    public func kioskDevices(inputs: any SimulatedInputs) -> KioskDevices {
        let lines = inputs.lines
        var encoder: (a: any DigitalInput, b: any DigitalInput)?
        if let a = lines[InputGestures.encoderA], let b = lines[InputGestures.encoderB] { encoder = (a, b) }
        return KioskDevices(
            waiter: inputs,
            buttons: Dictionary(uniqueKeysWithValues: ControlButton.allCases.map { ($0.rawValue, $0) }),
            encoder: encoder,
            display: display, buzzer: buzzer, leds: leds, sound: sound,
            buttonLines: lines.filter { ControlButton(rawValue: $0.key) != nil }.mapValues { $0 as any DigitalInput })
    }
}
