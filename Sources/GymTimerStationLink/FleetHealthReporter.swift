import GymTimerCore
import GymTimerFleet
import GymTimerSystem

/// What a station says of its health (`StationHealth`, retained on `P/S/health`): the figures of
/// its `HealthProbe`, its devices and last fault from the kiosk's `FaultLog`, its version. The
/// station publishes one when it connects, when the fault log moved (a device failed or
/// recovered: `faultsMoved`, checked after each wake-up, no read), and at a slow heartbeat
/// (`nextAt`, one deadline on the kiosk's loop; none while disconnected).
public final class FleetHealthReporter {
    /// The device kinds the health names.
    public enum DeviceKind: Hashable, Sendable {
        case display, audio, reader
    }

    /// How often the health is published when nothing changed.
    public static let heartbeat: Duration = .seconds(300)

    private let probe: any HealthProbe
    private let version: String
    private let faults: FaultLog?
    private let fitted: Set<DeviceKind>
    private let wall: WallClock
    public let interval: Duration
    /// When the heartbeat is due (nil: not connected, or nothing published yet).
    public internal(set) var nextAt: Moment?
    private var seenChanges: Int?
    private var lastFault: StationHealth.Fault?

    /// `fitted`: the devices the station has (the others are `absent`); `faults`: the kiosk's log.
    public init(
        probe: any HealthProbe, version: String = GymTimerVersion.current, faults: FaultLog?,
        fitted: Set<DeviceKind> = [.display, .audio], wall: WallClock = .system, interval: Duration = heartbeat
    ) {
        (self.probe, self.version, self.faults, self.fitted, self.wall) = (probe, version, faults, fitted, wall)
        self.interval = interval
    }

    /// Whether a device failed or recovered since the last sample.
    public var faultsMoved: Bool { faults.map { $0.changes != seenChanges } ?? false }

    /// The health now (the next heartbeat `interval` after `moment`).
    public func sample(at moment: Moment) -> StationHealth {
        nextAt = moment + interval
        let unix = Int(wall.now)
        if let faults, faults.changes != seenChanges {
            seenChanges = faults.changes
            if let text = faults.lastFault, text != lastFault?.text { lastFault = StationHealth.Fault(at: unix, text: text) }
        }
        let figures = probe.sample()
        return StationHealth(
            version: version, uptime: figures.uptime,
            clock: figures.clockSynchronised.map { StationHealth.Clock(synchronised: $0, offsetMs: figures.clockOffsetMs) },
            cpuTemp: figures.cpuTemp, diskFreeMB: figures.diskFreeMB, diskFreePercent: figures.diskFreePercent,
            wifiDbm: figures.wifiDbm,
            devices: StationHealth.Devices(display: state(.display), audio: state(.audio), reader: state(.reader)),
            fault: lastFault, at: unix)
    }

    private func state(_ kind: DeviceKind) -> StationHealth.DeviceState {
        guard fitted.contains(kind) else { return .absent }
        let failing = faults?.failingDevices ?? []
        return failing.contains { Self.kind(of: $0) == kind } ? .fault : .ok
    }

    /// Which device a fault log's device name is (the drivers' names: "display", "audio output",
    /// "speech", the buzzer's line, "card reader ..."), or nil for another (the history, the journal).
    public static func kind(of device: String) -> DeviceKind? {
        let name = device.lowercased()
        if name.contains("display") { return .display }
        if ["audio", "sound", "speech", "buzzer"].contains(where: name.contains) { return .audio }
        if ["reader", "nfc", "card"].contains(where: name.contains) { return .reader }
        return nil
    }
}
