import GymTimerFleet
@testable import GymTimerCollector
@testable import GymTimerFleetCommands
@testable import GymTimerFleetLink
@testable import GymTimerStationLink
@testable import GymTimerUpgrade
import Testing

@Suite struct StationHealthTests {
    static let sample = StationHealth(
        version: "1.9.0", uptime: 86400, clock: .init(synchronised: true, offsetMs: 1.2), cpuTemp: 48.5,
        diskFreeMB: 5120, diskFreePercent: 62.5, wifiDbm: -61, devices: .init(display: .ok, audio: .ok, reader: .absent),
        fault: .init(at: 1_764_300_000, text: "audio: no card"), at: 1_764_300_000)

    @Test func encodesTheAgreedPayload() {
        #expect(Self.sample.json == """
            {"version":"1.9.0","uptime":86400,"clock":{"synchronised":true,"offset_ms":1.2},"cpu_temp":48.5,\
            "disk_free_mb":5120,"disk_free_percent":62.5,"wifi_dbm":-61,\
            "devices":{"display":"ok","audio":"ok","reader":"absent"},\
            "fault":{"at":1764300000,"text":"audio: no card"},"flags":[],"at":1764300000}
            """)
    }

    @Test func unknownFiguresAreNull() {
        let health = StationHealth(
            version: "1.9.0", uptime: nil, clock: nil, cpuTemp: nil, diskFreeMB: nil, diskFreePercent: nil, wifiDbm: nil,
            devices: .init(), fault: nil, at: 5)
        #expect(health.json == """
            {"version":"1.9.0","uptime":null,"clock":null,"cpu_temp":null,"disk_free_mb":null,"disk_free_percent":null,\
            "wifi_dbm":null,"devices":{"display":"ok","audio":"ok","reader":"absent"},"fault":null,"flags":[],"at":5}
            """)
        #expect(health.flags.isEmpty)
    }

    @Test func flagsFollowTheThresholds() {
        var health = Self.sample
        health.clock = .init(synchronised: false, offsetMs: nil)
        health.diskFreePercent = 9.9
        health.cpuTemp = 75
        #expect(health.flags == [.clock, .disk, .hot])
        #expect(health.json.contains(#""flags":["clock","disk","hot"]"#))
        health.diskFreePercent = 10
        health.cpuTemp = 74.9
        #expect(health.flags == [.clock])
    }

    @Test func parsesWhatItWrites() {
        #expect(StationHealth.parse(Array(Self.sample.json.utf8)) == Self.sample)
    }

    @Test func hostilePayloadsDoNotTrap() {
        for text in [
            "", "null", "[1]", #"{"uptime":1e300,"at":-5,"cpu_temp":"hot","disk_free_percent":1e999}"#,
            #"{"clock":{"synchronised":"yes"},"devices":{"display":"on fire"},"fault":{"at":"x"},"flags":["hot"]}"#,
            #"{"wifi_dbm":-9223372036854775809,"disk_free_mb":18446744073709551616}"#,
        ] {
            guard let health = StationHealth.parse(Array(text.utf8)) else { continue }
            #expect(health.uptime == nil && health.cpuTemp == nil && health.wifiDbm == nil && health.diskFreeMB == nil)
            #expect(health.flags.isEmpty)
            #expect(health.devices.display == .absent)
        }
        #expect(StationHealth.parse(Array(repeating: 0x20, count: 5000)) == nil)
        let long = StationHealth.parse(Array(#"{"version":"\#(String(repeating: "v", count: 999))"}"#.utf8))
        #expect(long?.version.count == StationHealth.maximumTextLength)
    }
}

/// What `fleet status` prints of the stations' health.
@Suite struct FleetHealthLinesTests {
    @Test func everyFigureAndTheFlagsInWords() {
        var hot = StationHealthTests.sample
        hot.clock = .init(synchronised: false, offsetMs: nil)
        hot.cpuTemp = 81.2
        hot.diskFreePercent = 6.2
        hot.diskFreeMB = 900
        hot.wifiDbm = nil
        hot.devices.audio = .fault
        hot.fault = .init(at: 1, text: "audio output: \u{1B}[2Jgone")
        let stations = [
            FleetConsole.Station(name: "rack-1", status: "online", mode: "rest", phase: "idle", display: "-", left: "-",
                                 health: StationHealthTests.sample),
            FleetConsole.Station(name: "rack-12", status: "online", mode: "rest", phase: "idle", display: "-", left: "-", health: hot),
            FleetConsole.Station(name: "rack-2", status: "offline", mode: "-", phase: "-", display: "-", left: "-"),
        ]
        #expect(FleetHealthLines.lines(stations) == [
            "", "Health:",
            "rack-1   version 1.9.0  up 1d 0h  clock synchronised +1.2 ms  CPU 48.5 °C  disk 5120 MB free (62.5%)  "
                + "Wi-Fi -61 dBm  devices display ok, audio ok, reader absent  last fault audio: no card",
            "rack-12  version 1.9.0  up 1d 0h  clock unsynchronised  CPU 81.2 °C  disk 900 MB free (6.2%)  "
                + "Wi-Fi none  devices display ok, audio fault, reader absent  last fault audio output: ?[2Jgone  "
                + "CLOCK UNSYNCHRONISED  DISK 6% FREE  HOT 81 °C",
            "rack-2   no health published",
        ])
        #expect(FleetHealthLines.lines([stations[2]]).isEmpty)
    }
}
