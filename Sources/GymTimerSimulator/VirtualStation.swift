import Foundation
import GymTimerCollector
import GymTimerConfig
import GymTimerCore
import GymTimerHAL
import GymTimerMQTT
import GymTimerRuntime
import GymTimerSimulation
import GymTimerStationLink
import GymTimerSystem

/// A fleet station in virtual time over an in-memory broker: the kiosk's one loop
/// (`KioskRuntime` on a `VirtualClock`, simulated devices, scripted hands) hosting its
/// `FleetStation` as every kiosk does (`KioskFleet`), whose MQTT client is an
/// `InMemoryBroker`'s. The one blocking point is the scripted inputs' wait, which moves the
/// clock to the next deadline of anybody in the loop: the kiosk, the station, and `extraDrivers`
/// (a `FleetCollector` on the same broker, say), so a gym's day runs in a test in microseconds,
/// with no socket and no sleep. What the fleet's tests and the station fuzzer (FuzzStation) run.
public final class VirtualStation {
    public let clock: VirtualClock
    public let broker: InMemoryBroker
    public let devices = SimulatedDevices()
    public let inputs: ScriptedInputs
    public let fleet: KioskFleet
    public let runtime: KioskRuntime<VirtualClock>
    /// The workouts the kiosk recorded (its own history; the fleet's outbox is in memory).
    public let history = InMemoryHistory()
    /// The Unix time virtual time 0 stands for.
    public let epoch: Double
    /// The wall clock: `epoch` plus virtual time.
    public let wall: WallClock

    /// A kiosk with `configuration` (which must have a `[fleet]`: its broker address is not
    /// used) on `clock` from its instant 0, its station a client of `broker`. `log` takes each
    /// fault or fleet line.
    public init(
        configuration: GymTimerConfiguration, clock: VirtualClock, broker: InMemoryBroker,
        epoch: Double = ScriptedSimulation.virtualEpoch.timeIntervalSince1970, extraDrivers: [any TimedDriver] = [],
        log: @escaping (String) -> Void
    ) {
        self.clock = clock
        self.broker = broker
        self.epoch = epoch
        inputs = ScriptedInputs(clock: clock, buttons: SimulatedDevices.buttonNames)
        let now = { Moment(clock.now.offset) }
        let wall = WallClock(epoch: epoch) { clock.now.offset }
        self.wall = wall
        fleet = KioskFleet(
            configuration, historyPath: nil, now: now, wall: wall,
            transport: broker.factory, startLead: .zero, log: log)
        runtime = KioskRuntime(
            kiosk: Kiosk(settings: configuration.kiosk), clock: clock, origin: .init(offset: .zero),
            devices: devices.kioskDevices(inputs: inputs), history: fleet.history(history), faults: FaultLog(sink: log),
            extraDrivers: fleet.drivers + extraDrivers,
            sleepClock: SleepClock(wall: wall, utcOffset: { _ in 0 }, trusted: { true }))
        fleet.attach(runtime)
        runtime.start()
        fleet.observe(runtime)
    }

    /// The station (always there: the configuration has a `[fleet]`).
    public var station: FleetStation? { fleet.station }

    /// Runs the loop until virtual time `end` (from instant 0), the station told of the kiosk
    /// after every wake-up, as `run` and the headless station do.
    public func run(until end: Duration) throws(HALError) {
        let limit = Moment(end)
        while runtime.now < limit {
            try runtime.step(notAfter: limit)
            fleet.observe(runtime)
        }
    }

    /// Runs the loop for `duration` of virtual time.
    public func run(for duration: Duration) throws(HALError) { try run(until: clock.now.offset + duration) }

    /// Runs several stations on one clock (and one broker) until `end`: each round every loop
    /// steps, none past the earliest deadline or scripted edge of any of them, so no station
    /// moves the clock past another's instant. (One station's `run` is the same with one.)
    public static func run(_ stations: [VirtualStation], until end: Duration) throws(HALError) {
        guard let clock = stations.first?.clock else { return }
        let limit = Moment(end)
        while clock.now.offset < end {
            var next = limit
            for station in stations {
                if let due = station.runtime.nextDeadline { next = min(next, due) }
                if let edge = station.inputs.nextEdgeTime { next = min(next, Moment(edge)) }
            }
            next = max(next, Moment(clock.now.offset))
            for station in stations {
                try station.runtime.step(notAfter: next)
                station.fleet.observe(station.runtime)
            }
        }
    }
}
