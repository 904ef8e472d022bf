import GymTimerDrivers

/// A display the simulation can watch: what it shows now, and each change as it happens.
public protocol SimulatedDisplay: SegmentDisplay {
    /// What the display shows.
    var frame: SegmentFrame { get }
    /// Called with each new frame.
    var onFrame: ((SegmentFrame) -> Void)? { get set }
}

extension SimulatedSegmentDisplay: SimulatedDisplay {}
