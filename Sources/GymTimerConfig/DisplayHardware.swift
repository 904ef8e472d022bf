/// The `[hardware.display]` table: which 4-digit 7-segment driver is fitted and how it is reached.
public struct DisplayHardware: Hashable, Sendable, Codable {
    /// The driver chip and its bus (`type` in the config).
    public enum Kind: Hashable, Sendable, Codable {
        /// Two GPIO lines, bit-banged (`clk`, `dio`).
        case tm1637(clk: LineSpec, dio: LineSpec)
        /// I²C on `/dev/i2c-<bus>` at `address` (0x70…0x77).
        case ht16k33(i2cBus: Int, address: Int)
        /// SPI through a spidev node such as `/dev/spidev0.0`.
        case max7219(spiDevice: String)
        /// No display fitted (a bench setup); every cue still reaches the buzzer and audio.
        case none
    }

    public var kind: Kind
    /// Brightness in percent, 0…100; each driver maps it onto its own steps.
    public var brightness: Int

    public init(kind: Kind = .tm1637(clk: .name("GPIO24"), dio: .name("GPIO25")), brightness: Int = 80) {
        self.kind = kind
        self.brightness = brightness
    }
}
