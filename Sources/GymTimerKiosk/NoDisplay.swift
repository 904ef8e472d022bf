import GymTimerDrivers
import GymTimerHAL

/// `hardware.display.type = "none"`: a bench set-up without a display; frames go nowhere.
final class NoDisplay: SegmentDisplay {
    func show(_ frame: SegmentFrame) throws(HALError) {}
    func setBrightness(_ level: Double) throws(HALError) {}
}
