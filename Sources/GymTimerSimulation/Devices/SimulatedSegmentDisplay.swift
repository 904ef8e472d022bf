import GymTimerDrivers
import GymTimerHAL

/// A display that keeps the last frame it was shown and reports each new one, decoded to the
/// characters a person would read, to `onFrame`.
public final class SimulatedSegmentDisplay: SegmentDisplay {
    public private(set) var frame = SegmentFrame.dark
    public private(set) var brightness = 1.0
    public var onFrame: ((SegmentFrame) -> Void)?
    /// When set, every write fails with this error.
    public var failure: HALError?

    public init() {}

    public func show(_ frame: SegmentFrame) throws(HALError) {
        if let failure { throw failure }
        self.frame = frame
        onFrame?(frame)
    }

    public func setBrightness(_ level: Double) throws(HALError) {
        if let failure { throw failure }
        brightness = level
    }
}
