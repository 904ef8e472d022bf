import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerMQTT

extension FleetStation {
    /// The station of a kiosk with `configuration`'s `[fleet]` (nil without one): its outbox
    /// beside the history at `historyPath` (in memory only if nil, or, logged, if that file
    /// cannot be opened), the knob's range and step for `set` from `[rest]`. Every kiosk makes
    /// its station here (through `KioskFleet`).
    public static func forKiosk(
        _ configuration: GymTimerConfiguration, historyPath: String?, password: String?,
        now: @escaping () -> Moment, unixNow: @escaping () -> Double = { Date().timeIntervalSince1970 },
        transport: MQTTTransportFactory = MQTTClient.factory, startLead: Duration = FleetStation.startLead,
        log: @escaping (String) -> Void
    ) -> FleetStation? {
        guard let fleet = configuration.fleet else { return nil }
        var outbox: FleetOutbox?
        do {
            if let historyPath { outbox = try FleetOutbox(path: FleetOutbox.path(besideHistory: historyPath)) }
        } catch {
            log("\(error)")
        }
        let rest = configuration.kiosk.rest
        return FleetStation(
            settings: fleet, password: password, outbox: outbox,
            restRange: rest.minSeconds...max(rest.minSeconds, rest.maxSeconds), restStep: rest.stepSeconds,
            now: now, unixNow: unixNow, transport: transport, startLead: startLead, log: log)
    }
}
