import GymTimerDrivers
import GymTimerHAL

/// A simulated MAX7219 on its own chip select, decoding SPI frames the way the chip does: the
/// 16-bit shift register latches on chip select rising, so of each frame only the last 16 bits
/// (address nibble, data byte) take effect; earlier words would have gone out on DOUT to a
/// daisy-chained chip and are reported in `violations`. Registers: digits 0x01-0x08, decode
/// mode 0x09, intensity 0x0A, scan limit 0x0B, shutdown 0x0C, display test 0x0F.
///
/// The frame is decoded as the chip lights it: no-decode digits as DP A B C D E F G, Code B
/// for digits with decode on, digits beyond the scan limit dark, the colon from the dp of the
/// second digit from the left.
public final class SimulatedMAX7219: SPIDevice {
    /// The device's name, for error messages.
    public let name: String
    /// Which digit register is the leftmost digit on this module.
    public let digitOrder: MAX7219Display.DigitOrder

    /// Every write fails with `noSuchDevice`, as if the spidev node were missing.
    public var failOpen = false
    /// Every write fails with EIO.
    public var failWrites = false
    /// The digit registers DIG0-DIG7 as last latched.
    public private(set) var digitRegisters = [UInt8](repeating: 0, count: 8)
    /// Decode mode: bit n set = Code B for digit n.
    public private(set) var decodeMode: UInt8 = 0
    /// Intensity step 0-15.
    public private(set) var intensity = 0
    /// Scan limit: digits 0 through this one are scanned.
    public private(set) var scanLimit = 0
    /// Shutdown register bit 0 clear: display blanked.
    public private(set) var isShutdown = true
    /// Display test: every LED lit, overriding the other registers.
    public private(set) var displayTest = false
    /// Every SPI frame that reached the chip, in order.
    public private(set) var transactions: [[UInt8]] = []
    /// Things the chip would not make sense of (frames not a multiple of 16 bits, words lost).
    public private(set) var violations: [String] = []
    /// Each change of what is shown, in order.
    public private(set) var frames: [SegmentFrame] = []
    /// Called with what is shown whenever a write changes it. Each register write is a
    /// complete command, so a four-digit update passes through up to three part-written frames
    /// (as on the real chip, for microseconds); a trace should keep the last one per instant.
    public var onFrame: ((SegmentFrame) -> Void)?

    private var lastShown = SegmentFrame.dark

    public init(digitOrder: MAX7219Display.DigitOrder = .digit0Leftmost, name: String = "sim-spidev0.0") {
        self.digitOrder = digitOrder
        self.name = name
    }

    /// The four digits and colon the registers describe, whether or not the display is on.
    public var frame: SegmentFrame {
        var digits = digitOrder.registers.map { digit(Int($0) - 1) }
        let colon = digits[1] & 0x80 != 0
        digits[1] &= 0x7F
        return SegmentFrame(digits: digits, colon: colon)
    }

    /// What the display shows: everything in display test, dark in shutdown, else `frame`.
    public var shown: SegmentFrame {
        if displayTest { return .allLit }
        return isShutdown ? .dark : frame
    }

    public func write(_ bytes: [UInt8]) throws(HALError) {
        if failOpen { throw .noSuchDevice(device: name, hint: "simulated: failOpen is set") }
        if failWrites { throw .io(device: name, operation: "write", errno: 5) }
        transactions.append(bytes)
        guard bytes.count >= 2, bytes.count % 2 == 0 else {
            violations.append("\(bytes.count * 8)-bit frame is not a 16-bit register write")
            return
        }
        if bytes.count > 2 {
            violations.append("\(bytes.count / 2) register writes in one chip-select frame: only the last latched")
        }
        latch(register: bytes[bytes.count - 2] & 0x0F, value: bytes[bytes.count - 1])
        let now = shown
        if now != lastShown {
            lastShown = now
            frames.append(now)
            onFrame?(now)
        }
    }

    private func latch(register: UInt8, value: UInt8) {
        switch register {
        case 0x00: break
        case 0x01...0x08: digitRegisters[Int(register) - 1] = value
        case 0x09: decodeMode = value
        case 0x0A: intensity = Int(value & 0x0F)
        case 0x0B: scanLimit = Int(value & 0x07)
        case 0x0C: isShutdown = value & 0x01 == 0
        case 0x0F: displayTest = value & 0x01 != 0
        default: violations.append("register 0x\(hex(register)) does not exist")
        }
    }

    /// Digit `index` (0-7) as `SegmentFrame` bits.
    private func digit(_ index: Int) -> UInt8 {
        guard index <= scanLimit else { return 0 }
        let value = digitRegisters[index]
        guard decodeMode & (1 << index) != 0 else { return MAX7219Display.segmentBits(value) }
        return Self.codeB[Int(value & 0x0F)] | (value & 0x80)
    }

    /// Code B font: 0-9, -, E, H, L, P, blank.
    private static let codeB: [UInt8] = "0123456789-EHLP ".map { SevenSegmentFont.segments(for: $0) }
}
