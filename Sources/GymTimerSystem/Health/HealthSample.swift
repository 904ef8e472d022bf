/// What a `HealthProbe` read of the machine: each figure nil where it could not be read.
public struct HealthSample: Hashable, Sendable {
    /// Seconds since boot (CLOCK_BOOTTIME).
    public var uptime: Int?
    /// Whether the wall clock is synchronised (adjtimex: STA_UNSYNC clear, no TIME_ERROR).
    public var clockSynchronised: Bool?
    /// adjtimex's last offset, in milliseconds.
    public var clockOffsetMs: Double?
    /// °C (thermal zone 0).
    public var cpuTemp: Double?
    /// Free space for an unprivileged user where the data lives (statvfs).
    public var diskFreeMB: Int?
    public var diskFreePercent: Double?
    /// The first wireless interface's signal level in dBm (/proc/net/wireless); nil without Wi-Fi.
    public var wifiDbm: Int?

    public init(
        uptime: Int? = nil, clockSynchronised: Bool? = nil, clockOffsetMs: Double? = nil, cpuTemp: Double? = nil,
        diskFreeMB: Int? = nil, diskFreePercent: Double? = nil, wifiDbm: Int? = nil
    ) {
        (self.uptime, self.clockSynchronised, self.clockOffsetMs) = (uptime, clockSynchronised, clockOffsetMs)
        (self.cpuTemp, self.diskFreeMB, self.diskFreePercent, self.wifiDbm) = (cpuTemp, diskFreeMB, diskFreePercent, wifiDbm)
    }
}
