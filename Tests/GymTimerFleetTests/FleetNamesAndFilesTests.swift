import Foundation
import Glibc
import GymTimerConfig
import GymTimerDrivers
import GymTimerFleet
@testable import GymTimerFleetLink
import GymTimerMQTT
import Testing

/// Names and files (issue #21, item 5) and what a coach's tools print of the network: station
/// names checked wherever they are typed, station lists that cannot turn into "all", password
/// and CA files checked by `check-config` and never a dark kiosk at run time, and retained
/// state from anyone on the broker printed safely by `fleet status`.
@Suite(.serialized) struct FleetNamesAndFilesTests {
    let directory: String
    let gymtimer = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gymtimer").path

    init() throws {
        var template = Array((NSTemporaryDirectory() + "fleet-names-XXXXXX").utf8CString)
        directory = String(cString: mkdtemp(&template)!)
    }

    /// Runs gymtimer to its end: exit status, stdout, stderr.
    func run(_ arguments: [String]) throws -> (status: Int32?, out: String, err: String) {
        let (out, err) = ("\(directory)/run.out", "\(directory)/run.err")
        let status = try RunningProcess(gymtimer, arguments, stdout: out, stderr: err).wait(upTo: 30)
        func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return (status, read(out), read(err))
    }

    // MARK: Station names and lists

    @Test func allIsReservedAndEveryNameRuleHolds() {
        #expect(!FleetSettings.isValidStation("all"))
        for bad in ["", "a/b", "rack 1", "+", "#", "Rack-1", String(repeating: "a", count: 33), "rack-1\u{1b}"] {
            #expect(!FleetSettings.isValidStation(bad), "\(bad.debugDescription) is refused")
        }
        #expect(FleetSettings.isValidStation("rack-1") && FleetSettings.isValidStation(String(repeating: "a", count: 32)))
        do {
            _ = try GymTimerConfiguration.parse("[fleet]\nbroker = \"mqtt://b\"\nstation = \"all\"")
            Issue.record("station = \"all\" was accepted")
        } catch {
            #expect(error.problems == ["fleet.station = \"all\": \(FleetSettings.stationRule)"])
        }
    }

    @Test(arguments: ["", ",,", " , ", "rack-1,,rack-2", "all", "rack-1,all", "a/b", "rack-1,+", "rack-1,rack-1"])
    func aStationListThatNamesNoValidStationsIsRefused(list: String) {
        guard case .failure(let problem) = FleetTarget.named(list) else {
            Issue.record("\(list.debugDescription) was accepted")
            return
        }
        #expect(problem.description.hasPrefix("--stations"))
        #expect(!problem.description.contains("\n"))
    }

    @Test func aGoodListIsTheStationsItNames() {
        #expect(FleetTarget.named("rack-1, rack-2") == .success(.stations(["rack-1", "rack-2"])))
        #expect(FleetTarget.stations(["rack-1"]).topics(prefix: "gymtimer") == ["gymtimer/rack-1/cmd"])
        #expect(FleetTarget.all.topics(prefix: "gymtimer") == ["gymtimer/all/cmd"])
    }

    // MARK: What `fleet status` prints of the network

    @Test func hostileRetainedStateIsPrintedSafely() {
        let state = JSONValue.parse(Array("""
            {"mode":"\\u001b[2J\\u001b]0;pwned\\u0007rest","phase":"\(String(repeating: "x", count: 10000))",
             "display":"\\u202e\\u001b[31m12","deadline":1e300}
            """.utf8))
        let row = FleetConsole.station("rack-1", status: "online", state: state, now: 1_767_225_600)
        #expect(FleetConsole.station("rack-1", status: "online\u{1b}[0m", state: state, now: 0).status == "online?…")
        for cell in [row.status, row.mode, row.phase, row.display, row.left] {
            #expect(!cell.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f || $0 == "\u{202e}" }, "\(cell.debugDescription)")
            #expect(cell.count <= 18)
        }
        #expect(row.left == "?" && row.display == "-", "a deadline no station counts is shown as not a time")
        #expect(row.mode == "?[2J?]0;pwn…")
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, 1e10, 86_401])
    func noTimeTrapsTheTimeLeft(seconds: Double) {
        #expect(FleetConsole.minutesAndSeconds(seconds) == "?")
        #expect(FleetConsole.displayedTime(seconds) == nil)
    }

    @Test func aRunningCountdownShowsTheDigitsOfNowNotOfItsStart() {
        let state = JSONValue.parse(Array(#"{"mode":"rest","phase":"resting","display":"0130","deadline":1000.2}"#.utf8))
        let row = FleetConsole.station("rack-1", status: "online", state: state, now: 919)
        #expect(row.left == "1:22" && row.display == "01:22")
        let offline = FleetConsole.station("rack-1", status: "offline", state: state, now: 919)
        #expect(offline.left == "-" && offline.display == "\"0130\"")
    }

    // MARK: Password and CA files

    @Test func aPasswordFileWithWindowsLineEndsIsItsFirstLine() throws {
        for (text, password) in [("chalk\r\n", "chalk"), ("chalk\r\nmore\r\n", "chalk"), ("chalk\n", "chalk"), ("chalk", "chalk"), ("chalk\r", "chalk")] {
            try text.write(toFile: "\(directory)/pass", atomically: true, encoding: .utf8)
            #expect(try FleetPassword.read(from: "\(directory)/pass") == password, "\(text.debugDescription)")
        }
    }

    @Test func checkConfigNamesAPasswordOrCAFileItCannotRead() throws {
        let config = "\(directory)/files.toml"
        try """
            [fleet]
            broker = "mqtts://127.0.0.1:8883"
            station = "rack-1"
            password_file = "\(directory)/missing.pass"
            ca_file = "\(directory)"
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let (status, _, err) = try run(["check-config", config])
        #expect(status == 2)
        let lines = err.split(separator: "\n").map(String.init)
        #expect(lines == [
            "\(config): fleet.password_file = \"\(directory)/missing.pass\": cannot be read: No such file or directory (it holds the MQTT password on its first line, readable by the gymtimer user)",
            "\(config): fleet.ca_file = \"\(directory)\": is not a regular file (the gym's CA certificate in PEM, readable by the gymtimer user)",
        ])
    }

    @Test func aKioskWhosePasswordFileIsMissingRunsAloneAndSaysSoOnce() throws {
        let broker = try LocalBroker()
        let config = "\(directory)/alone.toml"
        try """
            [fleet]
            broker = "mqtt://127.0.0.1:\(broker.port)"
            station = "rack-1"
            password_file = "\(directory)/missing.pass"
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let station = try RunningProcess(
            gymtimer, ["simulate", "--headless", "--config", config, "--data-dir", "\(directory)/alone"],
            stdout: "\(directory)/alone.jsonl", stderr: "\(directory)/alone.log", pipeInput: true)
        station.send("0 click start")
        station.send("1.5 end")
        #expect(station.wait(upTo: 20) == 0, "the kiosk started and ran its script")
        let log = (try? String(contentsOfFile: "\(directory)/alone.log", encoding: .utf8)) ?? ""
        let fleetLines = log.split(separator: "\n").filter { $0.contains("fleet") }
        #expect(fleetLines.count == 1 && fleetLines.first?.contains("missing.pass") == true
                && fleetLines.first?.contains("runs alone") == true, "\(log)")
        let trace = (try? String(contentsOfFile: "\(directory)/alone.jsonl", encoding: .utf8)) ?? ""
        #expect(trace.contains("\"text\":\"0129\""), "the rest counts down without the fleet")
    }

    // MARK: The coach's commands against a real broker

    /// A broker with station `rack-1` online (its retained status), and an observer of every
    /// command topic.
    func brokerWithRack1() throws -> (LocalBroker, MQTTClient) {
        let broker = try LocalBroker()
        let rack = try MQTTClient(.init(clientID: "rack-1", host: "127.0.0.1", port: broker.port))
        try rack.connect()
        _ = pump([rack]) { $0[0]?.contains(.connected) == true }
        let mid = try rack.publish(MQTTMessage(topic: "gymtimer/rack-1/status", text: "online", qos: 1, retain: true))
        _ = pump([rack]) { $0[0]?.contains(.delivered(mid: mid)) == true }
        rack.disconnect()
        let watcher = try observer(port: broker.port, ["gymtimer/+/cmd"])
        _ = pump([watcher], timeout: 0.5) { _ in false }
        return (broker, watcher)
    }

    func commands(_ watcher: MQTTClient) -> [MQTTMessage] {
        (pump([watcher], timeout: 1) { _ in false }[0] ?? []).compactMap { if case .message(let m) = $0 { m } else { nil } }
    }

    @Test func anEmptyOrBadStationListStartsNothing() throws {
        let (broker, watcher) = try brokerWithRack1()
        let url = "mqtt://127.0.0.1:\(broker.port)"
        for list in ["", ",,", "rack-1,,", "all", "a/b"] {
            let (status, _, err) = try run(["fleet", "start", "--broker", url, "--stations", list, "--in", "1"])
            #expect(status == 2 && err.contains("--stations"), "\(list.debugDescription): \(err)" as Comment)
        }
        let (status, _, err) = try run(["fleet", "start", "--broker", url, "--stations", "rack-9", "--in", "1"])
        #expect(status == 1 && err.contains("no station named rack-9") && err.contains("seen: rack-1"), "\(err)")
        let (negative, _, why) = try run(["fleet", "start", "--broker", url, "--in", "-5"])
        #expect(negative == 2 && why.contains("--in -5: must be between 0 and 3600"), "\(why)")
        #expect(commands(watcher).isEmpty, "no command reached any station")

        let (started, out, _) = try run(["fleet", "start", "--broker", url, "--stations", "rack-1", "--in", "1"])
        #expect(started == 0 && out.contains("(rack-1)"), "\(out)")
        let sent = commands(watcher)
        #expect(sent.map(\.topic) == ["gymtimer/rack-1/cmd"] && sent.allSatisfy { !$0.retain && $0.text.hasPrefix("{\"do\":\"start\",\"at\":") })
    }

    @Test func fleetSleepSendsTheWindowOrOffAndRefusesBadTimesBeforeSending() throws {
        let (broker, watcher) = try brokerWithRack1()
        let url = "mqtt://127.0.0.1:\(broker.port)"
        for bad in [["--from", "25:00", "--until", "06:00"], ["--from", "22:00", "--until", "22:00"], ["--from", "22:00"],
                    ["--off", "--from", "22:00"], []] {
            let (status, _, err) = try run(["fleet", "sleep", "--broker", url] + bad)
            #expect(status == 2 && err.contains("sleep"), "\(bad): \(err)" as Comment)
        }
        #expect(commands(watcher).isEmpty, "no command reached any station")
        let (set, _, setErr) = try run(["fleet", "sleep", "--broker", url, "--stations", "rack-1", "--from", "22:00", "--until", "06:00"])
        #expect(set == 0, "\(setErr)")
        #expect(commands(watcher).map(\.text) == [#"{"do":"sleep","from":"22:00","until":"06:00"}"#])
        let (off, _, offErr) = try run(["fleet", "sleep", "--broker", url, "--stations", "rack-1", "--off"])
        #expect(off == 0, "\(offErr)")
        #expect(commands(watcher).map(\.text) == [#"{"do":"sleep","off":true}"#])
    }

    @Test func fleetStatusOnHostileRetainedStateNeitherCrashesNorPrintsEscapes() throws {
        let broker = try LocalBroker()
        let evil = try MQTTClient(.init(clientID: "evil", host: "127.0.0.1", port: broker.port))
        try evil.connect()
        _ = pump([evil]) { $0[0]?.contains(.connected) == true }
        let state = #"{"mode":"rest","phase":"resting","display":"\u001b[2J\u001b]0;pwned\u0007","deadline":1e300}"#
        var mids: [Int32] = []
        mids.append(try evil.publish(MQTTMessage(topic: "gymtimer/rack-1/state", text: state, qos: 1, retain: true)))
        mids.append(try evil.publish(MQTTMessage(topic: "gymtimer/rack-1/status", text: "online", qos: 1, retain: true)))
        mids.append(try evil.publish(MQTTMessage(topic: "gymtimer/rack-2/state", text: #"{"remaining":-1e308,"mode":7}"#, qos: 1, retain: true)))
        mids.append(try evil.publish(MQTTMessage(topic: "gymtimer/Rack One!/state", text: "{}", qos: 1, retain: true)))
        _ = pump([evil]) { events in mids.allSatisfy { (events[0] ?? []).contains(.delivered(mid: $0)) } }
        evil.disconnect()
        let (status, out, err) = try run(["fleet", "status", "--broker", "mqtt://127.0.0.1:\(broker.port)"])
        #expect(status == 0, "\(err)")
        #expect(!out.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7f }, "\(out.debugDescription)")
        let rows = out.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(rows.map { $0.first } == ["Station", "rack-1", "rack-2"], "\(out)")
        #expect(rows.dropFirst().first?.contains("?") == true, "rack-1's time left is not a time: \(out)")
    }

    @Test func fleetStatusShowsEachStationsSleepWindowAndWhetherItIsAsleep() throws {
        let broker = try LocalBroker()
        let stations = try MQTTClient(.init(clientID: "stations", host: "127.0.0.1", port: broker.port))
        try stations.connect()
        _ = pump([stations]) { $0[0]?.contains(.connected) == true }
        let retained: [(String, String, String)] = [
            ("rack-1", "online", #"{"mode":"rest","phase":"idle","display":"    ","sleep":{"from":"22:00","until":"06:00"},"asleep":true}"#),
            ("rack-2", "online", #"{"mode":"rest","phase":"idle","display":"0130","sleep":{"from":"23:30","until":"05:00"},"asleep":false}"#),
            ("rack-3", "offline", #"{"mode":"rest","phase":"idle","display":"    ","sleep":{"from":"22:00","until":"06:00"},"asleep":true}"#),
            ("rack-4", "online", #"{"mode":"rest","phase":"idle","display":"0130"}"#),
            ("rack-5", "online", #"{"mode":"rest","sleep":{"from":"\u001b[2J","until":"06:00\u202e"},"asleep":"\u001b]0;pwned\u0007"}"#),
            ("rack-6", "online", #"{"mode":"rest","sleep":"22:00-06:00","asleep":1}"#),
        ]
        var mids: [Int32] = []
        for (station, status, state) in retained {
            mids.append(try stations.publish(MQTTMessage(topic: "gymtimer/\(station)/state", text: state, qos: 1, retain: true)))
            mids.append(try stations.publish(MQTTMessage(topic: "gymtimer/\(station)/status", text: status, qos: 1, retain: true)))
        }
        _ = pump([stations]) { events in mids.allSatisfy { (events[0] ?? []).contains(.delivered(mid: $0)) } }
        stations.disconnect()
        let (status, out, err) = try run(["fleet", "status", "--broker", "mqtt://127.0.0.1:\(broker.port)"])
        #expect(status == 0, "\(err)")
        #expect(!out.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7f || $0 == "\u{202e}" }, "\(out.debugDescription)")
        // The window and whether it is dark are the last two columns.
        let rows = out.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        let cells = Dictionary(rows.compactMap { row in row.first.map { ($0, Array(row.suffix(2))) } }, uniquingKeysWith: { a, _ in a })
        #expect(cells["Station"] == ["Sleep", "Asleep"], "\(out)")
        #expect(cells["rack-1"] == ["22:00–06:00", "yes"], "\(out)")
        #expect(cells["rack-2"] == ["23:30–05:00", "no"], "\(out)")
        #expect(cells["rack-3"] == ["22:00–06:00", "-"], "offline: its window, not what it last said of the dark: \(out)")
        #expect(cells["rack-4"] == ["-", "-"], "no window: \(out)")
        #expect(cells["rack-5"] == ["?", "?"], "not a window, not a yes or no: \(out)")
        #expect(cells["rack-6"] == ["?", "?"], "\(out)")
    }

    @Test func theCoachsCommandsFromTheCommandLineMeanWhatTheySay() throws {
        let broker = try LocalBroker()
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let config = "\(directory)/rack-1.toml"
        try "[fleet]\nbroker = \"\(url)\"\nstation = \"rack-1\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let watcher = try observer(port: broker.port, ["gymtimer/rack-1/status", "gymtimer/rack-1/state"])
        let station = try RunningProcess(
            gymtimer, ["simulate", "--headless", "--config", config, "--data-dir", "\(directory)/rack-1"],
            stdout: "\(directory)/rack-1.jsonl", stderr: "\(directory)/rack-1.log", pipeInput: true)
        defer { station.signal(SIGTERM); _ = station.wait(upTo: 10) }
        /// The station's latest retained state once `done` holds for it (or after 10 s).
        func state(until done: @escaping (String) -> Bool) -> String {
            var latest = ""
            _ = pump([watcher], timeout: 10) { events in
                for case .message(let message) in events[0] ?? [] where message.topic.hasSuffix("/state") { latest = message.text }
                return done(latest)
            }
            return latest
        }
        _ = pump([watcher], timeout: 10) { ($0[0] ?? []).contains { if case .message(let m) = $0 { m.text == "online" } else { false } } }
        station.send("0 click start")
        #expect(state { $0.contains("\"phase\":\"resting\"") }.contains("\"resting\""), "the rest runs")

        for (verb, extra, phase) in [("pause", [String](), "paused"), ("resume", [], "resting"), ("reset", [], "idle")] {
            let (status, out, err) = try run(["fleet", verb, "--broker", url, "--stations", "rack-1"] + extra)
            #expect(status == 0 && out.contains("(rack-1)"), "\(verb): \(out) \(err)")
            let shown = state { $0.contains("\"phase\":\"\(phase)\"") }
            #expect(shown.contains("\"phase\":\"\(phase)\""), "after fleet \(verb): \(shown)")
        }
        let (status, _, err) = try run(["fleet", "select", "--broker", url, "--stations", "rack-1", "--mode", "interval"])
        #expect(status == 0, "\(err)")
        #expect(state { $0.contains("\"mode\":\"interval\"") }.contains("\"mode\":\"interval\""))
        let (badMode, _, why) = try run(["fleet", "select", "--broker", url, "--mode", "yoga"])
        #expect(badMode == 2 && why.contains("--mode yoga"), "\(why)")
    }
}
