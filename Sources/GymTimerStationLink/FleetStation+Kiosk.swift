import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerMQTT
import GymTimerSystem

extension FleetStation {
    /// The station of a kiosk with `configuration`'s `[fleet]` (nil without one): its outbox
    /// beside the history at `historyPath` (in memory only if nil, or, logged, if that file
    /// cannot be opened), the knob's range and step for `set` from `[rest]`, the password from
    /// its `password_file`. Every kiosk makes its station here (through `KioskFleet`). A
    /// password or CA file that cannot be read is one logged line and no station: the kiosk runs
    /// alone rather than not at all (`check-config` names the same file beforehand).
    public static func forKiosk(
        _ configuration: GymTimerConfiguration, historyPath: String?,
        now: @escaping () -> Moment, wall: WallClock = .system,
        transport: MQTTTransportFactory = MQTTClient.factory, startLead: Duration = FleetStation.startLead,
        log: @escaping (String) -> Void
    ) -> FleetStation? {
        guard let fleet = configuration.fleet else { return nil }
        let password: String?
        do {
            password = try fleet.passwordFile.map(FleetPassword.read)
        } catch {
            log("fleet: \(error); the kiosk runs alone, without the fleet")
            return nil
        }
        if let problem = FleetFiles.problems(FleetSettings(broker: fleet.broker, station: fleet.station, caFile: fleet.caFile)).first {
            log("fleet: \(problem); the kiosk runs alone, without the fleet")
            return nil
        }
        var outbox: FleetOutbox?
        do {
            if let historyPath { outbox = try FleetOutbox(path: FleetOutbox.path(besideHistory: historyPath), log: log) }
        } catch {
            log("\(error)")
        }
        let rest = configuration.kiosk.rest
        return FleetStation(
            settings: fleet, password: password, outbox: outbox,
            restRange: rest.minSeconds...max(rest.minSeconds, rest.maxSeconds), restStep: rest.stepSeconds,
            programs: Kiosk.freshProgram(configuration.kiosk).programs.map(\.name),
            now: now, wall: wall, transport: transport, startLead: startLead, log: log)
    }
}
