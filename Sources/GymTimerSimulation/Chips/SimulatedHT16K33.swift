import GymTimerDrivers
import GymTimerHAL

/// A simulated I2C bus with one HT16K33 on it, decoding writes the way the chip does: system
/// setup (0x2X, bit 0 = oscillator), display setup (0x8X, bit 0 = on, bits 1-2 = blink),
/// dimming (0xEX) and display RAM writes (a start address 0x00-0x0F, then data bytes,
/// auto-incrementing). The frame is read from RAM with the Adafruit backpack layout (digits at
/// 0x00, 0x02, 0x06, 0x08, colon bit 1 at 0x04).
///
/// A write to any other address fails with EREMOTEIO, as Linux i2c-dev reports a missing
/// acknowledge, so the error looks like the real backend's.
public final class SimulatedHT16K33: I2CBus {
    /// The bus's name, for error messages.
    public let name: String
    /// The chip's 7-bit address.
    public let address: UInt8

    /// Fails every write with EREMOTEIO (an unplugged backpack). A real unplug also loses the
    /// chip's set-up: call `reset()` as well to simulate that.
    public var failWrites = false
    /// Display RAM, 16 bytes.
    public private(set) var ram = [UInt8](repeating: 0, count: 16)
    /// System setup: the oscillator runs (out of standby).
    public private(set) var oscillatorOn = false
    /// Display setup: display on.
    public private(set) var isOn = false
    /// Display setup: blink rate, 0 (off), 1 (2 Hz), 2 (1 Hz), 3 (0.5 Hz).
    public private(set) var blink = 0
    /// Dimming: duty cycle step 0-15, (n + 1)/16.
    public private(set) var dimming = 15
    /// Every write that reached the chip, in order.
    public private(set) var transactions: [[UInt8]] = []
    /// Things the chip would not make sense of.
    public private(set) var violations: [String] = []
    /// Each change of what is shown, in order.
    public private(set) var frames: [SegmentFrame] = []
    /// Called with what is shown whenever a write changes it.
    public var onFrame: ((SegmentFrame) -> Void)?

    private var lastShown = SegmentFrame.dark

    public init(address: UInt8 = 0x70, name: String = "sim-i2c-1") {
        self.address = address
        self.name = name
    }

    /// The four digits and the colon in RAM, whether or not the display is on.
    public var frame: SegmentFrame {
        SegmentFrame(digits: [ram[0x00], ram[0x02], ram[0x06], ram[0x08]], colon: ram[0x04] & 0x02 != 0)
    }

    /// What the display shows: `frame` when the oscillator runs and the display is on.
    public var shown: SegmentFrame { oscillatorOn && isOn ? frame : .dark }

    /// Back to the power-on state (standby, display off, full duty, RAM cleared), as after the
    /// backpack lost power.
    public func reset() {
        ram = [UInt8](repeating: 0, count: 16)
        oscillatorOn = false
        isOn = false
        blink = 0
        dimming = 15
        lastShown = .dark
    }

    public func write(address: UInt8, _ bytes: [UInt8]) throws(HALError) {
        guard address == self.address, !failWrites else {
            throw .io(device: name, operation: "write to 0x\(hex(address))", errno: 121)
        }
        transactions.append(bytes)
        decode(bytes)
        let now = shown
        if now != lastShown {
            lastShown = now
            frames.append(now)
            onFrame?(now)
        }
    }

    private func decode(_ bytes: [UInt8]) {
        guard let command = bytes.first else {
            violations.append("empty write")
            return
        }
        let data = bytes.dropFirst()
        switch command & 0xF0 {
        case 0x00:
            for (offset, byte) in data.enumerated() { ram[(Int(command) + offset) % ram.count] = byte }
            return
        case 0x20:
            oscillatorOn = command & 0x01 != 0
        case 0x80:
            isOn = command & 0x01 != 0
            blink = Int(command >> 1) & 0x03
        case 0xE0:
            dimming = Int(command & 0x0F)
        default:
            violations.append("command 0x\(hex(command)) is not simulated")
        }
        if !data.isEmpty { violations.append("\(data.count) bytes after command 0x\(hex(command))") }
    }
}
