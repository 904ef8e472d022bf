import GymTimerHAL

/// An HT16K33 LED controller on I2C wired as the Adafruit 4-digit 7-segment backpack: digits at
/// display RAM 0x00, 0x02, 0x06, 0x08, the colon at 0x04 (bit 1). The backpack's segment bits
/// match `SegmentFrame` (bit 0 = a … bit 7 = dp).
///
/// The chip keeps its set-up until it loses power, so the driver sets it up once (on first use
/// or `start()`) and again after any failed write: a backpack that was unplugged and plugged
/// back comes back with the next frame instead of staying dark in standby.
public final class HT16K33Display: SegmentDisplay {
    /// System setup with the oscillator on (leaves standby).
    static let oscillatorOn: UInt8 = 0x21
    /// Display setup: display on, no blinking.
    static let displayOn: UInt8 = 0x81
    /// Dimming set: the low nibble is the duty cycle, (n + 1)/16.
    static let dimming: UInt8 = 0xE0
    /// RAM offsets of the four digits, left to right, and of the colon.
    static let digitAddresses: [Int] = [0x00, 0x02, 0x06, 0x08]
    static let colonAddress = 0x04
    static let colonBits: UInt8 = 0x02

    private let bus: any I2CBus
    /// The 7-bit I2C address (0x70 to 0x77 with the backpack's address jumpers).
    public let address: UInt8
    private var dimmingStep = 15
    private var needsSetup = true

    /// For error messages: the chip, its bus and address.
    public var name: String { "HT16K33 at 0x\(String(address, radix: 16)) on \(bus.name)" }

    public init(bus: any I2CBus, address: UInt8 = 0x70) {
        self.bus = bus
        self.address = address
    }

    /// Sets the chip up: oscillator on, RAM cleared, dimming, display on (in that order, so
    /// nothing stale is ever lit). Called by the first `show` or `setBrightness` otherwise.
    public func start() throws(HALError) {
        try send([Self.oscillatorOn])
        try send(ramImage(SegmentFrame.dark))
        try send([Self.dimming | UInt8(dimmingStep)])
        try send([Self.displayOn])
        needsSetup = false
    }

    public func show(_ frame: SegmentFrame) throws(HALError) {
        if needsSetup { try start() }
        try send(ramImage(frame))
    }

    /// Maps 0...1 to the chip's sixteen duty cycles.
    public func setBrightness(_ level: Double) throws(HALError) {
        dimmingStep = BrightnessScale.step(for: level, maximum: 15)
        if needsSetup {
            try start()
        } else {
            try send([Self.dimming | UInt8(dimmingStep)])
        }
    }

    /// The RAM write for `frame`: start address 0x00, then the ten bytes the backpack uses.
    func ramImage(_ frame: SegmentFrame) -> [UInt8] {
        var ram = [UInt8](repeating: 0, count: 10)
        for (index, address) in Self.digitAddresses.enumerated() { ram[address] = frame.digits[index] }
        ram[Self.colonAddress] = frame.colon ? Self.colonBits : 0
        return [0x00] + ram
    }

    /// One I2C write; a failure means the chip may have lost power, so it is set up again next.
    private func send(_ bytes: [UInt8]) throws(HALError) {
        do {
            try bus.write(address: address, bytes)
        } catch {
            needsSetup = true
            throw error
        }
    }
}
