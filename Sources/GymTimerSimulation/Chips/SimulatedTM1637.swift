import GymTimerDrivers
import GymTimerHAL

/// A TM1637 on a simulated two-wire bus, decoding the line changes the way the chip does, so a
/// driver with a timing or bit-order mistake shows the wrong digits (or none) here too.
///
/// `clock` and `data` are open-drain lines forming a wired-AND bus with the chip: a line is low
/// if the driver or the chip pulls it low. The chip sees a start when DIO falls while CLK is
/// high and a stop when DIO rises while CLK is high, samples DIO on each CLK rising edge (least
/// significant bit first), and pulls DIO low from the eighth clock's falling edge to the ninth's
/// to acknowledge. It interprets data commands (0x40 auto-increment, 0x44 fixed address),
/// address commands (0xC0 | address) followed by RAM bytes, and display control (0x80 | 0x08
/// on | brightness 0-7).
public final class SimulatedTM1637 {
    /// One of the chip's two bus lines, as the driver sees it.
    public final class Line: OpenDrainLine {
        public let name: String
        private let chip: SimulatedTM1637
        private let isClock: Bool

        fileprivate init(name: String, chip: SimulatedTM1637, isClock: Bool) {
            self.name = name
            self.chip = chip
            self.isClock = isClock
        }

        /// `false` pulls the wire low, `true` releases it to the pull-up.
        public func write(_ active: Bool) throws(HALError) { chip.drive(clock: isClock, released: active) }

        /// The wire's level, including the chip's pull (the acknowledge).
        public func read() throws(HALError) -> Bool { isClock ? chip.clockLevel : chip.dataLevel }
    }

    /// The clock line (CLK) for the driver. Each access returns a new handle on the same wire.
    public var clock: Line { Line(name: clockName, chip: self, isClock: true) }
    /// The data line (DIO) for the driver.
    public var data: Line { Line(name: dataName, chip: self, isClock: false) }

    /// Whether the chip answers at all; `false` simulates a disconnected module: it never
    /// acknowledges and ignores the bus.
    public var acknowledges = true { didSet { inTransaction = false } }
    /// The six display RAM bytes (addresses 0xC0 to 0xC5).
    public private(set) var ram = [UInt8](repeating: 0, count: 6)
    /// Display control: lit or not.
    public private(set) var isOn = false
    /// Display control: pulse width step, 0 (dimmest lit) to 7.
    public private(set) var brightness = 0
    /// Every start-to-stop transaction's bytes, in order, for tests that check the exact traffic.
    public private(set) var transactions: [[UInt8]] = []
    /// Things the chip would not make sense of (unknown commands, data in the wrong place).
    public private(set) var violations: [String] = []
    /// Each change of what is shown, in order.
    public private(set) var frames: [SegmentFrame] = []
    /// Called with what is shown whenever a complete transaction changes it.
    public var onFrame: ((SegmentFrame) -> Void)?

    /// The four RAM digits, the colon decoded from the dp bit of digit 1 (as clock modules wire
    /// it), whether or not the display is on.
    public var frame: SegmentFrame {
        var digits = Array(ram.prefix(4))
        let colon = digits[1] & 0x80 != 0
        digits[1] &= 0x7F
        return SegmentFrame(digits: digits, colon: colon)
    }

    /// What the display shows: `frame` when on, dark when off.
    public var shown: SegmentFrame { isOn ? frame : .dark }

    private let clockName: String
    private let dataName: String
    private var driverReleasesClock = true
    private var driverReleasesData = true
    private var chipPullsData = false
    private var inTransaction = false
    private var clocksInByte = 0
    private var shift: UInt8 = 0
    private var bytes: [UInt8] = []
    private var autoIncrement = true
    private var address = 0
    private var lastShown = SegmentFrame.dark

    public init(clockName: String = "tm1637-clk", dataName: String = "tm1637-dio") {
        self.clockName = clockName
        self.dataName = dataName
    }

    var clockLevel: Bool { driverReleasesClock }
    var dataLevel: Bool { driverReleasesData && !chipPullsData }

    fileprivate func drive(clock: Bool, released: Bool) {
        let (oldClock, oldData) = (clockLevel, dataLevel)
        if clock { driverReleasesClock = released } else { driverReleasesData = released }
        guard acknowledges else { return }
        if oldClock && clockLevel && oldData != dataLevel {
            if dataLevel { stopCondition() } else { startCondition() }
        } else if !oldClock && clockLevel {
            clockRose()
        } else if oldClock && !clockLevel {
            clockFell()
        }
    }

    private func startCondition() {
        inTransaction = true
        clocksInByte = 0
        shift = 0
        bytes = []
        chipPullsData = false
    }

    /// Ends the transaction (a partial byte, such as the stop's own clock, is dropped).
    private func stopCondition() {
        guard inTransaction else { return }
        inTransaction = false
        transactions.append(bytes)
        let now = shown
        if now != lastShown {
            lastShown = now
            frames.append(now)
            onFrame?(now)
        }
    }

    private func clockRose() {
        guard inTransaction else { return }
        clocksInByte += 1
        if clocksInByte <= 8, dataLevel { shift |= 1 << (clocksInByte - 1) }
    }

    private func clockFell() {
        guard inTransaction else { return }
        if clocksInByte == 8 {
            chipPullsData = true
        } else if clocksInByte == 9 {
            chipPullsData = false
            received(shift)
            clocksInByte = 0
            shift = 0
        }
    }

    private func received(_ byte: UInt8) {
        defer { bytes.append(byte) }
        guard let command = bytes.first else {
            switch byte & 0xC0 {
            case 0x40:
                if byte & 0x02 != 0 { violations.append("key read (0x\(hex(byte))) is not simulated") }
                autoIncrement = byte & 0x04 == 0
            case 0xC0:
                address = Int(byte & 0x07)
                if address >= ram.count { violations.append("address command 0x\(hex(byte)) beyond RAM") }
            case 0x80:
                isOn = byte & 0x08 != 0
                brightness = Int(byte & 0x07)
            default:
                violations.append("0x\(hex(byte)) is not a command")
            }
            return
        }
        guard command & 0xC0 == 0xC0 else {
            violations.append("data byte 0x\(hex(byte)) after command 0x\(hex(command))")
            return
        }
        if address < ram.count { ram[address] = byte }
        if autoIncrement { address += 1 }
    }
}
