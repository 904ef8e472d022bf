import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerFleet
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerMQTT
import GymTimerSimulation
import GymTimerSystem
import Testing

/// A station's retained health on `P/S/health`, in virtual time on the in-memory broker: at
/// connection, again when a device fails, and at the heartbeat (not before).
@Suite struct StationHealthPublishTests {
    let loop = VirtualLoop()
    let broker: InMemoryBroker
    let faults = FaultLog(sink: { _ in })
    let probe = SimulatedHealthProbe(HealthSample(
        uptime: 86400, clockSynchronised: true, clockOffsetMs: 1.2, cpuTemp: 48.5, diskFreeMB: 5120, diskFreePercent: 62.5,
        wifiDbm: -61))

    init() {
        let loop = loop
        broker = InMemoryBroker(now: { loop.now.sinceOrigin })
    }

    func station() -> FleetStation {
        let settings = FleetSettings(broker: .init(host: "gym.local", port: 1883, tls: false), station: "rack-1", homeAssistant: false)
        // The wall clock runs with the loop's virtual time (the loop is the test's alone).
        nonisolated(unsafe) let loop = loop
        let station = FleetStation(
            settings: settings, password: nil, outbox: nil, now: { loop.now }, transport: broker.factory, startLead: .zero,
            log: { print($0) })
        station.health = FleetHealthReporter(
            probe: probe, version: "1.9.0", faults: faults, wall: WallClock(epoch: 1_764_300_000) { loop.now.sinceOrigin })
        return station
    }

    /// The health payloads `watcher` received since last asked.
    func healths(_ watcher: any MQTTTransport) -> [String] {
        watcher.takeEvents().compactMap { event in
            guard case .message(let message) = event, message.topic == "gymtimer/rack-1/health" else { return nil }
            return message.text
        }
    }

    struct Broken: Error, CustomStringConvertible {
        var description: String { "write failed" }
    }

    /// The wall clock's Unix second now (the loop's timeline from 1_764_300_000).
    var unix: Int { 1_764_300_000 + Int(loop.now.sinceOrigin.components.seconds) }

    /// The health the broker retains for rack-1.
    func retained() -> StationHealth? {
        broker.retained["gymtimer/rack-1/health"].flatMap { StationHealth.parse($0.payload) }
    }

    @Test func publishedAtConnectionOnAFaultAndAtTheHeartbeat() throws {
        let watcher = try broker.factory(.init(clientID: "watcher", host: "gym.local", port: 1883))
        try watcher.connect()
        try watcher.subscribe(FleetTopics.everyStationHealth(prefix: "gymtimer"), qos: 1)
        _ = watcher.takeEvents()
        let rack = station()
        loop.drivers = [rack]
        #expect(loop.run(upTo: .seconds(10)) { rack.isOnline })
        let connectedAt = unix
        loop.run(for: .seconds(1))
        #expect(healths(watcher) == ["""
            {"version":"1.9.0","uptime":86400,"clock":{"synchronised":true,"offset_ms":1.2},"cpu_temp":48.5,\
            "disk_free_mb":5120,"disk_free_percent":62.5,"wifi_dbm":-61,\
            "devices":{"display":"ok","audio":"ok","reader":"absent"},"fault":null,"flags":[],"at":\(connectedAt)}
            """])

        // A device fails: the next wake-up republishes, with the device and the fault.
        loop.run(for: .seconds(9))
        faults.failed("display", Broken())
        let failedAt = unix
        rack.observe(Kiosk(settings: KioskSettings()), display: nil)
        loop.run(for: .seconds(1))
        let fault = try #require(healths(watcher).last.flatMap { StationHealth.parse(Array($0.utf8)) })
        #expect(fault.devices.display == .fault && fault.devices.audio == .ok)
        #expect(fault.fault == StationHealth.Fault(at: failedAt, text: "display: write failed"))
        // Nothing moved: no republish on an ordinary wake-up.
        rack.observe(Kiosk(settings: KioskSettings()), display: nil)
        loop.run(for: .seconds(1))
        #expect(healths(watcher).isEmpty)

        // The heartbeat: 300 s after the last publish, not before (read from what the broker
        // retains: a watcher left unpumped for minutes would be dropped for its keep-alive).
        probe.current.cpuTemp = 81
        loop.run(for: .seconds(297))
        #expect(retained()?.at == failedAt, "no heartbeat before its interval")
        loop.run(for: .seconds(2))
        let beat = try #require(retained())
        #expect(beat.cpuTemp == 81 && beat.flags == [.hot] && beat.devices.display == .fault)
        #expect(beat.at == failedAt + 300)
    }

    @Test func theFaultLogsDeviceNamesAreTheHealthsDevices() {
        #expect(FleetHealthReporter.kind(of: "display") == .display)
        #expect(FleetHealthReporter.kind(of: "audio output") == .audio)
        #expect(FleetHealthReporter.kind(of: "speech") == .audio)
        #expect(FleetHealthReporter.kind(of: "card reader pn532") == .reader)
        #expect(FleetHealthReporter.kind(of: "history") == nil)
        #expect(FleetHealthReporter.kind(of: "state journal") == nil)
        // A reader fitted and failing; a fault of the history is the last fault but no device's.
        let reporter = FleetHealthReporter(probe: SimulatedHealthProbe(), faults: faults, fitted: [.display, .audio, .reader])
        faults.failed("card reader pn532", Broken())
        faults.failed("history", Broken())
        let health = reporter.sample(at: .origin)
        #expect(health.devices == StationHealth.Devices(display: .ok, audio: .ok, reader: .fault))
        #expect(health.fault?.text == "history: write failed")
        #expect(reporter.nextAt == .origin + FleetHealthReporter.heartbeat)
        #expect(!reporter.faultsMoved)
        faults.succeeded("card reader pn532")
        #expect(reporter.faultsMoved, "a recovery is a change to publish")
        #expect(reporter.sample(at: .origin).devices.reader == .ok)
    }
}
