/// A `HealthProbe` that answers what it is told (`current`): the simulator's and the tests'.
public final class SimulatedHealthProbe: HealthProbe {
    public var current: HealthSample

    /// A healthy machine by default: synchronised, cool, room on its disk, no Wi-Fi.
    public init(_ current: HealthSample = HealthSample(
        uptime: 3600, clockSynchronised: true, clockOffsetMs: 0, cpuTemp: 45, diskFreeMB: 4096, diskFreePercent: 50)) {
        self.current = current
    }

    public func sample() -> HealthSample { current }
}
