import GymTimerConsole
import GymTimerFleet
import GymTimerMQTT
import Testing

/// The console's health view: the floor keeps each station's retained health, the page shows
/// every figure, flagged stations marked, every value escaped.
@Suite struct ConsoleHealthPageTests {
    static let healthy = StationHealth(
        version: "1.9.0", uptime: 86400, clock: .init(synchronised: true, offsetMs: 1.2), cpuTemp: 48.5,
        diskFreeMB: 5120, diskFreePercent: 62.5, wifiDbm: -61, devices: .init(), fault: nil, at: 1_764_300_000)

    @Test func theFloorKeepsRetainedHealth() {
        var floor = ConsoleFloor(prefix: "gymtimer")
        _ = floor.apply(MQTTMessage(topic: "gymtimer/rack-1/status", text: "online", retain: true))
        _ = floor.apply(MQTTMessage(topic: "gymtimer/rack-1/health", text: Self.healthy.json, retain: true))
        _ = floor.apply(MQTTMessage(topic: "gymtimer/rack-2/health", text: "{not json", retain: true))
        #expect(floor.health["rack-1"] == Self.healthy)
        #expect(floor.health["rack-2"] == nil)
        _ = floor.apply(MQTTMessage(topic: "gymtimer/rack-1/health", text: "", retain: true))
        #expect(floor.health["rack-1"] == nil, "an emptied retained health is forgotten")
    }

    @Test func everyFigureFlaggedRowsMarkedAndEscaped() {
        var hot = Self.healthy
        hot.version = "<script>alert(1)</script>"
        hot.cpuTemp = 81
        hot.clock = .init(synchronised: false, offsetMs: nil)
        let page = ConsoleHealthPage.html(title: "Gym & Co", stations: [("rack-1", Self.healthy), ("rack-2", hot), ("rack-3", nil)])
        #expect(page.contains("<title>Gym &amp; Co — health</title>"))
        #expect(page.contains(
            "<tr data-station=\"rack-1\"><td>rack-1</td><td>1.9.0</td><td>1d 0h</td><td>synchronised +1.2 ms</td>"
                + "<td>48.5 °C</td><td>5120 MB free (62.5%)</td><td>-61 dBm</td>"
                + "<td>display ok, audio ok, reader absent</td><td>none</td><td class=\"flags\">ok</td></tr>"))
        #expect(page.contains(
            "<tr data-station=\"rack-2\" class=\"flagged\"><td>rack-2</td><td>&lt;script&gt;alert(1)&lt;/scrip…</td>"))
        #expect(page.contains("<td class=\"flags\">CLOCK UNSYNCHRONISED, HOT 81 °C</td></tr>"))
        #expect(page.contains("<tr data-station=\"rack-3\"><td>rack-3</td><td colspan=\"9\">no health published</td></tr>"))
        #expect(!page.contains("<script>"))
    }
}
