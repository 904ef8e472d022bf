/// The `[hardware]` section of the config: the GPIO chip, the input lines' electrics and the
/// wiring of every device. The whole section is optional; the defaults are the reference wiring.
public struct HardwareSettings: Hashable, Sendable, Codable {
    /// A gpiochip name (`gpiochip0`) or a device path (`/dev/gpiochip0`).
    public var chip: String
    /// Whether the buttons and the knob's switch connect their line to ground when pressed.
    public var buttonsActiveLow: Bool
    public var bias: LineBias
    /// How long an input must be stable before a change counts, 1…30 ms.
    public var debounceMs: Int
    /// How long a button must be held for a long press, 500…10000 ms.
    public var holdMs: Int
    public var lines: HardwareLines
    public var display: DisplayHardware
    public var buzzer: BuzzerHardware
    /// The NFC reader members tap their cards on, or nil: none fitted.
    public var nfc: NFCReaderAddress?

    public init(
        chip: String = "gpiochip0", buttonsActiveLow: Bool = true, bias: LineBias = .pullUp,
        debounceMs: Int = 10, holdMs: Int = 2000, lines: HardwareLines = HardwareLines(),
        display: DisplayHardware = DisplayHardware(), buzzer: BuzzerHardware = .active,
        nfc: NFCReaderAddress? = nil
    ) {
        self.nfc = nfc
        self.chip = chip
        self.buttonsActiveLow = buttonsActiveLow
        self.bias = bias
        self.debounceMs = debounceMs
        self.holdMs = holdMs
        self.lines = lines
        self.display = display
        self.buzzer = buzzer
    }
}
