import GymTimerHAL

/// A 4-digit 7-segment display chip behind its bus: TM1637, HT16K33, MAX7219 or a simulated one.
public protocol SegmentDisplay: AnyObject {
    /// Shows `frame` (all four digits and the colon at once).
    func show(_ frame: SegmentFrame) throws(HALError)
    /// Sets the brightness from 0 (dimmest lit) to 1 (brightest); each chip maps it to its steps.
    func setBrightness(_ level: Double) throws(HALError)
}
