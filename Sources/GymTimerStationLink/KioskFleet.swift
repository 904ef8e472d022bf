import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerHAL
import GymTimerHistory
import GymTimerMQTT
import GymTimerRuntime
import GymTimerSystem
import GymTimerUpgrade

/// A kiosk's fleet station (fleet.md) hooked into its one loop, the same way for every kiosk
/// that has one — the real one (`run`), the terminal simulator and the headless station: its
/// socket is one more `PollSource` of the blocking point, its keep-alive, back-off and
/// scheduled starts one more timed driver, finished workouts go to its outbox beside the
/// history, commands reach the kiosk through the runtime (`attach`), the kiosk goes to the
/// station after every wake-up (`observe`) and `stop` says `offline`. Without a `[fleet]`
/// section every part is empty and nothing of the fleet runs.
public final class KioskFleet {
    public let station: FleetStation?
    /// The wall clock records are dated by (virtual in virtual time).
    private let wall: WallClock
    /// What the station's health reads the machine with, and the devices it has.
    private let healthProbe: any HealthProbe
    private let fitted: Set<FleetHealthReporter.DeviceKind>

    /// The station of `configuration`'s `[fleet]`, if any (see `FleetStation.forKiosk`): its
    /// outbox beside the history at `historyPath` (nil: in memory only, lost when the program ends); `now` is the
    /// runtime's timeline, `wall` the wall clock; `log` takes one line per problem.
    /// `transport` makes the MQTT client: the real one, or in virtual time an in-memory
    /// broker's (GymTimerSimulation's `InMemoryBroker`), with `startLead` zero. `healthProbe`
    /// reads the machine for the station's health: the real kiosk's `SystemHealthProbe`, else a
    /// simulated one.
    public init(
        _ configuration: GymTimerConfiguration, historyPath: String?, now: @escaping () -> Moment,
        wall: WallClock = .system, healthProbe: any HealthProbe = SimulatedHealthProbe(),
        transport: MQTTTransportFactory = MQTTClient.factory, startLead: Duration = FleetStation.startLead,
        log: @escaping (String) -> Void
    ) {
        self.wall = wall
        self.healthProbe = healthProbe
        fitted = configuration.hardware.nfc == nil ? [.display, .audio] : [.display, .audio, .reader]
        station = FleetStation.forKiosk(
            configuration, historyPath: historyPath, now: now, wall: wall,
            transport: transport, startLead: startLead, log: log)
        // Beside the history: the folder shared with the upgrade agent (`StationUpgrade`).
        if let historyPath {
            station?.upgrade = StationUpgrade(folder: (historyPath as NSString).deletingLastPathComponent + "/upgrade")
        }
    }

    /// The timed drivers to add to the loop's.
    public var drivers: [any TimedDriver] { station.map { [$0] } ?? [] }
    /// The sources to add to the blocking point's poll.
    public var sources: [any PollSource] { station.map { [$0] } ?? [] }

    /// `history`, and the outbox beside it.
    public func history(_ history: any WorkoutHistory) -> any WorkoutHistory {
        guard let station else { return history }
        localHistories = Self.stores(in: history)
        // The record's date is marked as the kiosk's history marks it (`StoredWorkout.clockSynchronised`);
        // unknown beside another history (the virtual stations' timeline is no wall clock).
        let synchronised = (history as? HistoryStore)?.clockSynchronised ?? { nil }
        return HistoryFanOut([
            history,
            FleetHistory(station: station, wall: wall, clockSynchronised: synchronised),
        ])
    }

    /// The kiosk's own histories (given to `history`), whose rows of a forgotten card are deleted.
    private var localHistories: [HistoryStore] = []

    /// The SQLite histories in `history` (one, or those a fan-out writes to).
    private static func stores(in history: any WorkoutHistory) -> [HistoryStore] {
        if let store = history as? HistoryStore { return [store] }
        if let fanOut = history as? HistoryFanOut { return fanOut.targets.flatMap(stores(in:)) }
        return []
    }

    /// Commands reach the kiosk through `runtime` (its effects come back: a refusal among them);
    /// a tap of a card the gym published takes its short name and bests from the station; a
    /// forget deletes the card's rows from the history and rewrites the whole journal.
    public func attach<C: Clock>(_ runtime: KioskRuntime<C>) where C.Duration == Duration {
        guard let station else { return }
        station.health = FleetHealthReporter(probe: healthProbe, faults: runtime.faultLog, fitted: fitted, wall: wall)
        station.deliver = { [unowned runtime] event, moment in runtime.inject(event, at: moment) }
        runtime.cardTapped = { [unowned station] card in station.tapped(card) }
        if case .success(let key)? = runtime.cardKey { station.carryCards(with: key) }
        station.forgetHeld = { [unowned runtime, weak self] card in
            var problem: String?
            for store in self?.localHistories ?? [] {
                do {
                    try store.forget(card: card)
                } catch {
                    problem = "\(error)"
                }
            }
            // After the history: its waiting records, which the journal keeps, are gone too.
            runtime.saveOverwritingEverything()
            return problem
        }
    }

    /// After every wake-up: the state, if it changed.
    public func observe<C: Clock>(_ runtime: KioskRuntime<C>) where C.Duration == Duration {
        station?.observe(runtime.kiosk, display: runtime.shownDisplay)
    }

    /// Says `offline` and disconnects.
    public func stop() { station?.stop() }
}
