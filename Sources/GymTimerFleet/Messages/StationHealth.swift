/// A station's retained `health` (fleet.md, "Health"): its version, uptime, clock, CPU
/// temperature, free space where its data lives, Wi-Fi signal, devices and last fault, sampled
/// at `at`; `flags` are computed from the figures (`Flag`), never trusted from the wire. A
/// figure the station could not read is nil (`null`). `parse` reads one defensively: a hostile
/// retained payload gives nil or nulls, never a trap.
public struct StationHealth: Hashable, Sendable, Encodable {
    /// The state of one of the station's devices.
    public enum DeviceState: String, Hashable, Sendable, Encodable {
        case ok, fault, absent
    }

    /// What is wrong with a station, from its figures.
    public enum Flag: String, Hashable, Sendable, Encodable, CaseIterable {
        /// The clock is not synchronised (no NTP client keeps it).
        case clock
        /// Less than `diskFreeLimit` percent free where its data lives.
        case disk
        /// The CPU at `hotLimit` °C or more.
        case hot
    }

    /// The station's devices.
    public struct Devices: Hashable, Sendable, Encodable {
        public var display: DeviceState
        public var audio: DeviceState
        public var reader: DeviceState

        public init(display: DeviceState = .ok, audio: DeviceState = .ok, reader: DeviceState = .absent) {
            (self.display, self.audio, self.reader) = (display, audio, reader)
        }
    }

    /// The station's last fault: when (Unix seconds) and what.
    public struct Fault: Hashable, Sendable, Encodable {
        public var at: Int
        public var text: String

        public init(at: Int, text: String) {
            self.at = at
            self.text = String(text.prefix(StationHealth.maximumTextLength))
        }
    }

    /// The clock's synchronisation (adjtimex).
    public struct Clock: Hashable, Sendable, Encodable {
        public var synchronised: Bool
        /// The estimated offset from the reference, in milliseconds (nil: unknown).
        public var offsetMs: Double?

        public init(synchronised: Bool, offsetMs: Double?) {
            self.synchronised = synchronised
            self.offsetMs = offsetMs.map { ($0 * 1000).rounded() / 1000 }
        }

        private enum CodingKeys: String, CodingKey {
            case synchronised
            case offsetMs = "offset_ms"
        }

        public func encode(to encoder: Encoder) throws {
            var fields = encoder.container(keyedBy: CodingKeys.self)
            try fields.encode(synchronised, forKey: .synchronised)
            try fields.encode(offsetMs, forKey: .offsetMs)
        }
    }

    public var version: String
    /// Seconds the machine has been up (nil: unknown).
    public var uptime: Int?
    /// Nil when adjtimex could not be read.
    public var clock: Clock?
    /// °C.
    public var cpuTemp: Double?
    public var diskFreeMB: Int?
    public var diskFreePercent: Double?
    /// Nil where there is no Wi-Fi.
    public var wifiDbm: Int?
    public var devices: Devices
    public var fault: Fault?
    /// When sampled (Unix seconds).
    public var at: Int

    /// Under this percentage of free space, a station is flagged `disk`.
    public static let diskFreeLimit = 10.0
    /// At this CPU temperature (°C) or above, a station is flagged `hot`.
    public static let hotLimit = 75.0
    /// The longest version or fault text kept.
    public static let maximumTextLength = 200
    /// The largest payload `parse` reads.
    public static let maximumSize = 4096

    public init(
        version: String, uptime: Int?, clock: Clock?, cpuTemp: Double?, diskFreeMB: Int?, diskFreePercent: Double?,
        wifiDbm: Int?, devices: Devices, fault: Fault?, at: Int
    ) {
        self.version = String(version.prefix(Self.maximumTextLength))
        (self.uptime, self.clock, self.cpuTemp) = (uptime, clock, cpuTemp.map { ($0 * 10).rounded() / 10 })
        (self.diskFreeMB, self.diskFreePercent) = (diskFreeMB, diskFreePercent.map { ($0 * 10).rounded() / 10 })
        (self.wifiDbm, self.devices, self.fault, self.at) = (wifiDbm, devices, fault, at)
    }

    /// What is wrong, from the figures: an unknown figure raises no flag.
    public var flags: [Flag] {
        var flags: [Flag] = []
        if clock?.synchronised == false { flags.append(.clock) }
        if let free = diskFreePercent, free < Self.diskFreeLimit { flags.append(.disk) }
        if let temperature = cpuTemp, temperature >= Self.hotLimit { flags.append(.hot) }
        return flags
    }

    /// The same health but for when it was sampled: what a republish on change compares.
    public var figures: StationHealth {
        var copy = self
        copy.at = 0
        copy.uptime = nil
        return copy
    }

    private enum CodingKeys: String, CodingKey {
        case version, uptime, clock
        case cpuTemp = "cpu_temp"
        case diskFreeMB = "disk_free_mb"
        case diskFreePercent = "disk_free_percent"
        case wifiDbm = "wifi_dbm"
        case devices, fault, flags, at
    }

    /// The payload as JSON text.
    public var json: String { FleetJSONEncoder().text(self) }

    public func encode(to encoder: Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(version, forKey: .version)
        try fields.encode(uptime, forKey: .uptime)
        try fields.encode(clock, forKey: .clock)
        try fields.encode(cpuTemp, forKey: .cpuTemp)
        try fields.encode(diskFreeMB, forKey: .diskFreeMB)
        try fields.encode(diskFreePercent, forKey: .diskFreePercent)
        try fields.encode(wifiDbm, forKey: .wifiDbm)
        try fields.encode(devices, forKey: .devices)
        try fields.encode(fault, forKey: .fault)
        try fields.encode(flags, forKey: .flags)
        try fields.encode(at, forKey: .at)
    }
}
