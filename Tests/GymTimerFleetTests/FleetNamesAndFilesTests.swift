import Foundation
import Glibc
import GymTimerConfig
import GymTimerFleet
@testable import GymTimerCollector
@testable import GymTimerFleetCommands
@testable import GymTimerFleetLink
@testable import GymTimerStationLink
@testable import GymTimerUpgrade
import GymTimerMQTT
import Testing
import GymTimerTestSupport
import GymTimerSystem

/// Names and files (issue #21, item 5) and what a coach's tools print of the network: station
/// names checked wherever they are typed, station lists that cannot turn into "all", password
/// and CA files checked by `check-config` and never a dark kiosk at run time, and retained
/// state from anyone on the broker printed safely by `fleet status`. None needs a broker: the
/// coach's tools run against a real one are end-to-end runs of the binary, in `HeadlessStationTests`.
@Suite(.serialized) struct FleetNamesAndFilesTests {
    let directory: String
    let gymtimer = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gymtimer").path

    init() throws {
        directory = testDirectory("fleet-names")
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

    @Test func checkConfigNamesACardKeyItCannotUse() throws {
        let config = "\(directory)/key.toml"
        let open = "\(directory)/open.key"
        _ = FileManager.default.createFile(atPath: open, contents: Data((String(repeating: "42", count: 32) + "\n").utf8), attributes: [.posixPermissions: 0o644])
        for (path, said) in [
            ("\(directory)/missing.key", "cannot be read: No such file or directory"),
            (open, "is readable by every local user (chmod 0640 it, owned by root:gymtimer, or 0600)"),
        ] {
            try "[athletes]\ncard_key = \"\(path)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
            let (status, out, err) = try run(["check-config", config])
            #expect(status == 2 && out.isEmpty)
            #expect(err == "\(config): athletes.card_key = \"\(path)\": \(said) (the gym's card key, 32 bytes of hex on one line)\n", "\(err)")
        }
        chmod(open, 0o600)
        let (status, out, _) = try run(["check-config", config])
        #expect(status == 0 && out == "\(config): ok\n")
        try "[athletes]\ncard_key = \"card.key\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let (relative, _, err) = try run(["check-config", config])
        #expect(relative == 2 && err.contains("athletes.card_key = \"card.key\": must be an absolute path"), "\(err)")
    }

    /// No broker is needed: without its password the station never connects (the address,
    /// a closed port, would only ever refuse).
    @Test func aKioskWhosePasswordFileIsMissingRunsAloneAndSaysSoOnce() throws {
        let config = "\(directory)/alone.toml"
        try """
            [fleet]
            broker = "mqtt://127.0.0.1:1"
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
        let fleetLines = log.split(separator: "\n").filter { $0.contains("fleet:") }
        #expect(fleetLines.count == 1 && fleetLines.first?.contains("missing.pass") == true
                && fleetLines.first?.contains("runs alone") == true, "\(log)")
        let trace = (try? String(contentsOfFile: "\(directory)/alone.jsonl", encoding: .utf8)) ?? ""
        #expect(trace.contains("\"text\":\"0129\""), "the rest counts down without the fleet")
    }
}
