import GymTimerDrivers
import GymTimerHAL

/// The real display driver (TM1637, HT16K33 or MAX7219) writing to a simulated chip, so a
/// simulation exercises the driver's bus traffic and its trace shows what the chip decoded.
///
/// A chip may pass through part-written frames within one `show` (the MAX7219 latches one
/// digit register per write), so the chip's `onFrame` only notes the latest frame and this
/// display reports it once the whole `show` is done: the trace is the same as the plain
/// simulated display's, one record per frame.
public final class SimulatedChipDisplay: SimulatedDisplay {
    /// The chips a display can be simulated with.
    public enum Chip: String, Hashable, Sendable, CaseIterable {
        case tm1637, ht16k33, max7219
    }

    public let chip: Chip
    public private(set) var frame = SegmentFrame.dark
    public var onFrame: ((SegmentFrame) -> Void)?
    /// The driver under test (`TM1637Display`, `HT16K33Display` or `MAX7219Display`).
    public let driver: any SegmentDisplay
    /// The simulated chip behind it (`SimulatedTM1637`, `SimulatedHT16K33` or `SimulatedMAX7219`).
    public let device: AnyObject
    private var pending: SegmentFrame?

    public init(chip: Chip) {
        self.chip = chip
        switch chip {
        case .tm1637:
            let simulated = SimulatedTM1637()
            driver = TM1637Display(clock: simulated.clock, data: simulated.data)
            device = simulated
        case .ht16k33:
            let simulated = SimulatedHT16K33()
            driver = HT16K33Display(bus: simulated, address: simulated.address)
            device = simulated
        case .max7219:
            let simulated = SimulatedMAX7219()
            driver = MAX7219Display(device: simulated)
            device = simulated
        }
        let note: (SegmentFrame) -> Void = { [unowned self] in pending = $0 }
        switch device {
        case let simulated as SimulatedTM1637: simulated.onFrame = note
        case let simulated as SimulatedHT16K33: simulated.onFrame = note
        case let simulated as SimulatedMAX7219: simulated.onFrame = note
        default: break
        }
    }

    public func show(_ frame: SegmentFrame) throws(HALError) {
        defer { reportPending() }
        try driver.show(frame)
    }

    public func setBrightness(_ level: Double) throws(HALError) {
        defer { reportPending() }
        try driver.setBrightness(level)
    }

    /// Reports the chip's last decoded frame, if it changed during the call.
    private func reportPending() {
        guard let shown = pending else { return }
        pending = nil
        frame = shown
        onFrame?(shown)
    }
}
