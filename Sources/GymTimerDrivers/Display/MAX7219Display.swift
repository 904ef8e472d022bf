import GymTimerHAL

/// A MAX7219 LED driver on SPI, in no-decode mode, driving four digits. Each register write is
/// one 16-bit frame (address byte, data byte) in its own chip-select frame: the chip latches the
/// last 16 bits clocked in when chip select rises, so two registers in one frame would lose the
/// first (it is shifted out to DOUT for a daisy-chained chip).
///
/// In no-decode mode the digit bits are DP A B C D E F G (bit 7 = dp, bit 6 = a … bit 0 = g),
/// the reverse of `SegmentFrame` for the segments; the driver maps them. The colon is the
/// decimal point of the second digit from the left, as on 4-digit clock-style modules.
///
/// The chip keeps its registers until power is lost (or noise corrupts them), so it is set up
/// on first use or `start()`, and again after any failed write.
public final class MAX7219Display: SegmentDisplay {
    /// Which digit register drives the leftmost digit; modules differ.
    public enum DigitOrder: Sendable, Hashable {
        /// DIG0 (register 0x01) is the leftmost digit, DIG3 (0x04) the rightmost: the usual
        /// wiring of 4-digit boards.
        case digit0Leftmost
        /// DIG0 (register 0x01) is the rightmost digit, DIG3 (0x04) the leftmost: the common
        /// 8-digit modules, where scan limit 3 lights their right-hand four digits.
        case digit0Rightmost

        /// The digit registers from left to right.
        public var registers: [UInt8] {
            switch self {
            case .digit0Leftmost: return [0x01, 0x02, 0x03, 0x04]
            case .digit0Rightmost: return [0x04, 0x03, 0x02, 0x01]
            }
        }
    }

    /// Register addresses (datasheet table 2).
    enum Register {
        static let decodeMode: UInt8 = 0x09
        static let intensity: UInt8 = 0x0A
        static let scanLimit: UInt8 = 0x0B
        static let shutdown: UInt8 = 0x0C
        static let displayTest: UInt8 = 0x0F
    }

    private let device: any SPIDevice
    /// Which register is the leftmost digit.
    public let digitOrder: DigitOrder
    private var intensityStep = 15
    private var needsSetup = true

    public init(device: any SPIDevice, digitOrder: DigitOrder = .digit0Leftmost) {
        self.device = device
        self.digitOrder = digitOrder
    }

    /// Sets the chip up: display test off, no decode, four digits scanned, intensity, digits
    /// cleared, then out of shutdown (so nothing stale is ever lit). Called by the first `show`
    /// or `setBrightness` otherwise.
    public func start() throws(HALError) {
        try write(Register.displayTest, 0)
        try write(Register.decodeMode, 0)
        try write(Register.scanLimit, 3)
        try write(Register.intensity, UInt8(intensityStep))
        for register in digitOrder.registers { try write(register, 0) }
        try write(Register.shutdown, 1)
        needsSetup = false
    }

    public func show(_ frame: SegmentFrame) throws(HALError) {
        if needsSetup { try start() }
        for (index, register) in digitOrder.registers.enumerated() {
            var bits = frame.digits[index]
            if index == 1 { bits = (bits & 0x7F) | (frame.colon ? 0x80 : 0) }
            try write(register, Self.chipBits(bits))
        }
    }

    /// Maps 0...1 to the chip's sixteen intensity steps.
    public func setBrightness(_ level: Double) throws(HALError) {
        intensityStep = BrightnessScale.step(for: level, maximum: 15)
        if needsSetup {
            try start()
        } else {
            try write(Register.intensity, UInt8(intensityStep))
        }
    }

    /// `SegmentFrame` bits (bit 0 = a … bit 6 = g, bit 7 = dp) to the chip's no-decode bits
    /// (bit 6 = a … bit 0 = g, bit 7 = dp).
    public static func chipBits(_ segments: UInt8) -> UInt8 {
        var bits = segments & 0x80
        for segment in 0..<7 where segments & (1 << segment) != 0 { bits |= 1 << (6 - segment) }
        return bits
    }

    /// The inverse of `chipBits`: the mapping is its own mirror image.
    public static func segmentBits(_ chipBits: UInt8) -> UInt8 { Self.chipBits(chipBits) }

    /// One register write in its own chip-select frame; a failure means the chip may have lost
    /// its set-up, so it is set up again next.
    private func write(_ register: UInt8, _ value: UInt8) throws(HALError) {
        do {
            try device.write([register, value])
        } catch {
            needsSetup = true
            throw error
        }
    }
}
