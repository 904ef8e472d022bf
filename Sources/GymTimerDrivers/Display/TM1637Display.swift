import GymTimerHAL

/// A TM1637 4-digit module driven by bit-banging its two-wire bus (CLK, DIO) over open-drain
/// lines. The bus looks like I2C but is not: there is no address, bytes go least significant
/// bit first, and the chip acknowledges each byte by pulling DIO low during the ninth clock.
///
/// Every `show` rewrites the whole display (data command, address command with the four
/// digits, display control), so a chip that lost power is fully restored by the next frame.
public final class TM1637Display: SegmentDisplay {
    /// Data command: write to display RAM, address auto-increment.
    static let dataCommand: UInt8 = 0x40
    /// Address command: set the RAM address (0xC0 is digit 0, the leftmost).
    static let addressCommand: UInt8 = 0xC0
    /// Display control: bit 3 turns the display on, bits 0-2 are the pulse width (0-7).
    static let displayControl: UInt8 = 0x80
    static let displayOn: UInt8 = 0x08
    /// The bit on the second digit that 4-digit clock modules wire to the colon.
    static let colonBit: UInt8 = 0x80
    /// Half a clock period, passed to `delay` between line changes (100 kHz bus: well inside
    /// the chip's limit even with long wires and slow pull-ups).
    public static let halfPeriod: Duration = .microseconds(5)

    private let clock: any OpenDrainLine
    private let data: any OpenDrainLine
    private let delay: (Duration) -> Void
    private var brightnessStep = 7
    private var hasShown = false

    /// For error messages: the chip and the lines it hangs on.
    public var name: String { "TM1637 (\(clock.name), \(data.name))" }

    /// `delay` waits between line changes; the default does not wait, which suits backends
    /// whose line writes are slow system calls anyway, and the simulated chip.
    public init(clock: any OpenDrainLine, data: any OpenDrainLine, delay: @escaping (Duration) -> Void = { _ in }) {
        self.clock = clock
        self.data = data
        self.delay = delay
    }

    public func show(_ frame: SegmentFrame) throws(HALError) {
        var bytes = frame.digits
        bytes[1] = (bytes[1] & ~Self.colonBit) | (frame.colon ? Self.colonBit : 0)
        try transaction([Self.dataCommand])
        try transaction([Self.addressCommand] + bytes)
        try transaction([controlByte])
        hasShown = true
    }

    /// Maps 0...1 to the chip's eight pulse widths; sent at once when something is shown,
    /// otherwise with the first frame (so the display does not light up with stale RAM).
    public func setBrightness(_ level: Double) throws(HALError) {
        brightnessStep = BrightnessScale.step(for: level, maximum: 7)
        if hasShown { try transaction([controlByte]) }
    }

    private var controlByte: UInt8 { Self.displayControl | Self.displayOn | UInt8(brightnessStep) }

    /// Start, `bytes` each acknowledged, stop. On a missing ACK the bus is still stopped (best
    /// effort) so the next transaction starts from idle.
    private func transaction(_ bytes: [UInt8]) throws(HALError) {
        try start()
        for byte in bytes {
            do {
                try write(byte)
            } catch {
                try? stop()
                throw error
            }
        }
        try stop()
    }

    /// DIO falls while CLK is high.
    private func start() throws(HALError) {
        try data.write(true)
        try clock.write(true)
        pause()
        try data.write(false)
        pause()
        try clock.write(false)
        pause()
    }

    /// DIO rises while CLK is high.
    private func stop() throws(HALError) {
        try clock.write(false)
        try data.write(false)
        pause()
        try clock.write(true)
        pause()
        try data.write(true)
        pause()
    }

    /// Eight bits least significant first, DIO changed only while CLK is low; then the ninth
    /// clock with DIO released, where the chip pulls it low to acknowledge.
    private func write(_ byte: UInt8) throws(HALError) {
        for bit in 0..<8 {
            try data.write((byte >> bit) & 1 == 1)
            pause()
            try clock.write(true)
            pause()
            try clock.write(false)
        }
        try data.write(true)
        pause()
        try clock.write(true)
        pause()
        let acknowledged = try !data.read()
        try clock.write(false)
        pause()
        guard acknowledged else { throw .noAcknowledge(device: name, byte: byte) }
    }

    private func pause() { delay(Self.halfPeriod) }
}
