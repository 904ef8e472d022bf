import GymTimerHAL
import GymTimerHardware

/// How the kiosk's devices are opened: the system's backends on the Pi (libgpiod, PWM sysfs,
/// i2c-dev, spidev), or, in tests, fakes that record what was asked for, so the wiring a config
/// produces is checked without hardware.
public struct DeviceOpener {
    /// Opens a GPIO chip by name (`gpiochip0`) or path.
    public var chip: (_ chip: String) throws(HALError) -> any GPIOChip
    /// A PWM buzzer on `chip`'s `channel` at `frequencyHz`, with where it is for messages.
    public var pwm: (_ chip: Int, _ channel: Int, _ frequencyHz: Int) throws(HALError) -> (output: any DigitalOutput, location: String)
    /// An I2C bus by number (`/dev/i2c-N`).
    public var i2c: (_ bus: Int) throws(HALError) -> any I2CBus
    /// An SPI device by path (`/dev/spidev0.0`).
    public var spi: (_ path: String) throws(HALError) -> any SPIDevice
    /// The NFC reader at a libnfc address (`pn532_i2c:/dev/i2c-1`); called on the reader's thread.
    public var cardReader: @Sendable (_ connstring: String) throws(HALError) -> any CardReader

    public init(
        chip: @escaping (_ chip: String) throws(HALError) -> any GPIOChip,
        pwm: @escaping (_ chip: Int, _ channel: Int, _ frequencyHz: Int) throws(HALError) -> (output: any DigitalOutput, location: String),
        i2c: @escaping (_ bus: Int) throws(HALError) -> any I2CBus,
        spi: @escaping (_ path: String) throws(HALError) -> any SPIDevice,
        cardReader: @escaping @Sendable (_ connstring: String) throws(HALError) -> any CardReader = { (connstring) throws(HALError) in
            try LibNFCCardReader(connstring)
        }
    ) {
        self.cardReader = cardReader
        self.chip = chip
        self.pwm = pwm
        self.i2c = i2c
        self.spi = spi
    }

    /// The real devices.
    public static var system: DeviceOpener {
        DeviceOpener(
            chip: { (chip) throws(HALError) in try GPIOChips.open(chip) },
            pwm: { (chip, channel, frequencyHz) throws(HALError) in
                let pwm = try PWMBuzzerOutput(chip: chip, channel: channel, frequencyHz: frequencyHz)
                return (pwm, "\(pwm.channelPath) at \(frequencyHz) Hz")
            },
            i2c: { (bus) throws(HALError) in try I2CDevBus(bus: bus) },
            spi: { (path) throws(HALError) in try SPIDevDevice(path: path) })
    }
}
