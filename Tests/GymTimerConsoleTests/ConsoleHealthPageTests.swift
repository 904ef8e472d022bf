import GymTimerConsole
import GymTimerFleet
import GymTimerMQTT
import Testing

/// The console's health view: the floor keeps each station's retained health and update, the
/// page shows every figure and each station's versions, flagged stations marked, every value
/// escaped; signed in, the coach's upgrade buttons, which send `upgrade` to the chosen stations.
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
        let page = ConsoleHealthPage.html(
            title: "Gym & Co",
            stations: [.init(name: "rack-1", health: Self.healthy), .init(name: "rack-2", health: hot), .init(name: "rack-3", health: nil)])
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

    @Test func theFloorKeepsRetainedUpdates() {
        var floor = ConsoleFloor(prefix: "gymtimer")
        let offered = StationUpdate(installedVersion: "0.9.0-1", latestVersion: "0.9.0-2", inProgress: false)
        _ = floor.apply(MQTTMessage(topic: "gymtimer/rack-1/status", text: "online", retain: true))
        _ = floor.apply(MQTTMessage(topic: "gymtimer/rack-1/update", text: offered.json, retain: true))
        _ = floor.apply(MQTTMessage(topic: "gymtimer/rack-2/update", text: #"{"installed_version":7}"#, retain: true))
        #expect(floor.updates["rack-1"] == offered)
        #expect(floor.updates["rack-2"] == nil, "a payload that is no update is not kept")
        _ = floor.apply(MQTTMessage(topic: "gymtimer/rack-1/update", text: "", retain: true))
        #expect(floor.updates["rack-1"] == nil, "an emptied retained update is forgotten")
        #expect(FleetTopics.everyStationUpdate(prefix: "gymtimer") == "gymtimer/+/update")
    }

    /// The station's payload read back as Home Assistant reads it; anything else is none.
    @Test func anUpdateIsReadBackAndOnlyAnUpdate() {
        for update in [StationUpdate(installedVersion: "0.9.0-1", latestVersion: "0.9.0-2", inProgress: true),
                       StationUpdate(installedVersion: "0.9.0", latestVersion: nil, inProgress: false)] {
            #expect(StationUpdate.parse(Array(update.json.utf8)) == update, "\(update.json)")
        }
        #expect(StationUpdate.parse(Array(#"{"installed_version":"1.0","latest_version":"1.1"}"#.utf8))
            == StationUpdate(installedVersion: "1.0", latestVersion: "1.1", inProgress: false))
        for bad in [#"{"latest_version":"1.1"}"#, #"{"installed_version":""}"#, #"{"installed_version":"1","in_progress":"yes"}"#,
                    #"{"installed_version":"1","latest_version":2}"#, "[1]", "{",
                    #"{"installed_version":""# + String(repeating: "9", count: 65) + "\"}"] {
            #expect(StationUpdate.parse(Array(bad.utf8)) == nil, "\(bad)")
        }
    }

    @Test func eachStationsVersionsInWords() {
        func words(_ installed: String, _ latest: String?, waiting: Bool = false) -> String {
            ConsoleHealthPage.versionWords(StationUpdate(installedVersion: installed, latestVersion: latest, inProgress: waiting))
        }
        #expect(words("0.9.0-1", "0.9.0-2") == "0.9.0-1 → 0.9.0-2 available")
        #expect(words("0.9.0-2", "0.9.0-2") == "0.9.0-2, up to date")
        #expect(words("0.9.0-1", "0.9.0-2", waiting: true) == "0.9.0-1 → 0.9.0-2, upgrade waiting")
        #expect(words("0.9.0-1", nil) == "0.9.0-1, latest not known")
        #expect(ConsoleHealthPage.versionWords(nil) == "no version published")
    }

    /// Signed in: a button per station, one for every station offered a newer version (not one
    /// already waiting), the answer's line, the script and the token; signed out or without a
    /// PIN: the versions alone, no script.
    @Test func theCoachGetsTheUpgradeButtonsEveryoneTheVersions() {
        let stations: [ConsoleHealthPage.Station] = [
            .init(name: "rack-1", health: Self.healthy, update: .init(installedVersion: "0.9.0-1", latestVersion: "0.9.0-2", inProgress: false)),
            .init(name: "rack-2", health: nil, update: .init(installedVersion: "0.9.0-1", latestVersion: "0.9.0-2", inProgress: true)),
            .init(name: "rack-3", health: nil, update: .init(installedVersion: "<b>", latestVersion: "<b>", inProgress: false)),
            .init(name: "rack-4", health: Self.healthy, update: .init(installedVersion: "0.9.0-1", latestVersion: "1.0.0-1", inProgress: false)),
            .init(name: "rack-5", health: nil, update: nil),
        ]
        let coach = ConsoleHealthPage.html(title: "Gym", stations: stations, csrf: "tok\"en")
        #expect(coach.contains(#"<meta name="csrf" content="tok&quot;en">"#))
        #expect(coach.contains(
            #"<tr data-station="rack-1"><td>rack-1</td><td class="software">0.9.0-1 → 0.9.0-2 available</td>"#
                + #"<td><button type="button" class="upgrade" data-station="rack-1">Upgrade</button></td></tr>"#))
        #expect(coach.contains(#"<td class="software">0.9.0-1 → 0.9.0-2, upgrade waiting</td>"#))
        #expect(coach.contains(#"<td class="software">&lt;b&gt;, up to date</td>"#))
        #expect(coach.contains(#"<tr data-station="rack-5"><td>rack-5</td><td class="software">no version published</td>"#))
        #expect(coach.contains(
            #"<button type="button" id="upgrade-newer" data-stations="rack-1 rack-4">Upgrade every station with a newer version (2)</button>"#))
        #expect(coach.contains(#"<p id="upgrade-result" role="status"></p>"#))
        #expect(coach.contains(#"<script src="/health.js"></script>"#))
        #expect(!coach.contains("<b>") && !coach.contains("<style>"), "escaped; the style is the served stylesheet's (the CSP allows no inline one)")

        let viewer = ConsoleHealthPage.html(title: "Gym", stations: stations, csrf: nil)
        #expect(viewer.contains(#"<tr data-station="rack-1"><td>rack-1</td><td class="software">0.9.0-1 → 0.9.0-2 available</td></tr>"#))
        #expect(!viewer.contains("<button") && !viewer.contains("<script") && !viewer.contains("upgrade-result"))
        #expect(viewer.contains(#"<meta name="csrf" content="">"#))
    }

    /// `upgrade`: the chosen stations get `{"do":"upgrade"}`; the line says who will upgrade and
    /// each refusal with the station's reason, never done where it was not.
    @Test func anUpgradeIsCheckedSentAndAnsweredPerStation() throws {
        let action = try ConsoleAction.parse(.upgrade, body: Array(#"{"stations":["rack-1","rack-2","rack-3"]}"#.utf8)).get()
        #expect(ConsoleAction.Verb(rawValue: "upgrade") == .upgrade)
        #expect(action.commands(now: 5) == [.upgrade])
        #expect(FleetRequest(.upgrade, id: "u").json.contains(#""do":"upgrade""#))
        for bad in [#"{"stations":[]}"#, #"{}"#, #"{"stations":["a/b"]}"#, "nope"] {
            #expect(throws: ConsolePIN.Problem.self, "\(bad)") { try ConsoleAction.parse(.upgrade, body: Array(bad.utf8)).get() }
        }
        var answers = FleetAnswers(id: "u", asked: ["rack-1", "rack-2", "rack-3"], offline: [])
        answers.take(event: Array(#"{"event":"command","id":"u"}"#.utf8), from: "rack-1")
        answers.take(event: Array(#"{"event":"error","id":"u","reason":"nothing newer: 0.9.0-2 is the gym's latest"}"#.utf8), from: "rack-2")
        #expect(action.report(at: 0, answers: [answers], offline: [])
            == "Upgrade asked for on rack-1: each upgrades once idle; refused on rack-2: nothing newer: 0.9.0-2 is the gym's latest; "
            + "no answer from rack-3")
        var none = FleetAnswers(id: "v", asked: ["rack-1"], offline: [])
        none.take(event: Array(#"{"event":"error","id":"v","reason":"no agent"}"#.utf8), from: "rack-1")
        #expect(ConsoleAction(verb: .upgrade, stations: ["rack-1"]).report(at: 0, answers: [none], offline: ["rack-9"])
            == "Not done anywhere; refused on rack-1: no agent; offline, will not get it: rack-9")
    }
}
