import Foundation
import Glibc
import GymTimerFleet
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerHistory
import GymTimerMQTT
import Testing
import GymTimerSystem

/// A headless station keeps its running state in its data directory as the kiosk does: killed
/// with SIGKILL and started again, it carries on where the wall clock says (part of
/// `HeadlessStationTests`, which runs its processes one test at a time).
extension HeadlessStationTests {
    /// A headless station without a `[fleet]`, on the data directory `data` with the config
    /// `config` (both under `directory`); its trace is `run`.jsonl, its log `run`.log.
    func headless(_ run: String, data: String, config: String) throws -> RunningProcess {
        try RunningProcess(
            gymtimer, ["simulate", "--headless", "--config", "\(directory)/\(config)", "--data-dir", "\(directory)/\(data)"],
            stdout: "\(directory)/\(run).jsonl", stderr: "\(directory)/\(run).log", pipeInput: true)
    }

    /// The trace lines of `run` for `device` (and, for an LED, its `name`).
    func changes(_ run: String, _ device: String, name: String? = nil) -> [[String: JSONValue]] {
        traceLines(run).filter { $0["device"]?.string == device && (name == nil || $0["name"]?.string == name) }
    }

    /// The seconds a countdown display shows ("0129" is 89), nil for anything else.
    func seconds(_ line: [String: JSONValue]) -> Int? {
        guard let text = line["text"]?.string, text.count == 4, let minutes = Int(text.prefix(2)), let seconds = Int(text.suffix(2))
        else { return nil }
        return minutes * 60 + seconds
    }

    /// The Unix time of the first change of `run`'s display to `text`.
    func shown(_ run: String, _ text: String) -> Double? {
        changes(run, "display").first { $0["text"]?.string == text }?["unix"]?.number
    }

    /// Whether `run`'s trace reports, at t 0, the LED `name` lit.
    func litAtStart(_ run: String, _ name: String) -> Bool {
        changes(run, "led", name: name).contains { $0["t"]?.number == 0 && $0["on"] == .bool(true) }
    }

    @Test func aStationKilledMidRestCarriesOnWithTheSameDeadline() throws {
        try "[rest]\ndefault_seconds = 30\n".write(toFile: "\(directory)/calm.toml", atomically: true, encoding: .utf8)
        let first = try headless("calm-1", data: "calm", config: "calm.toml")
        first.send("0 click start")
        // The display turns to 0029 one second into the rest: at its deadline less 29 s.
        #expect(eventually(10) { shown("calm-1", "0029") != nil }, "the rest began")
        let deadline = try #require(shown("calm-1", "0029")) + 29
        first.signal(SIGKILL)
        #expect(first.wait() == 128 + SIGKILL)

        let second = try headless("calm-2", data: "calm", config: "calm.toml")
        // Its state at t 0, then two more seconds of the countdown.
        #expect(eventually(10) { changes("calm-2", "display").count >= 3 }, "the countdown goes on after the restart")
        second.send("0 end")
        #expect(second.wait(upTo: 10) == 0)
        let frames = changes("calm-2", "display")
        let start = try #require(frames.first)
        #expect(start["t"]?.number == 0 && start["colon"] == .bool(true))
        let left = deadline - (start["unix"]?.number ?? 0)
        #expect(seconds(start).map { abs(Double($0) - left) < 1 } == true, "t 0 shows what is left of the rest: \(start), \(left) s")
        #expect(litAtStart("calm-2", "rest"), "resting from t 0")
        // Each later frame changes on a second boundary of the same deadline: within half a
        // second (the sum of two processes' write latencies under a loaded machine; a deadline
        // that moved would be a whole second or more off).
        for frame in frames.dropFirst() {
            let expected = deadline - Double(seconds(frame) ?? -1000)
            #expect(abs((frame["unix"]?.number ?? 0) - expected) < 0.5, "\(frame) is \((frame["unix"]?.number ?? 0) - expected) s off")
        }
        let log = (try? String(contentsOfFile: "\(directory)/calm-2.log", encoding: .utf8)) ?? ""
        #expect(log.contains("resumed from \(directory)/calm"), "the log says it resumed: \(log)")
    }

    /// A rest whose deadline passed while the station was down is handled as the kiosk handles
    /// it (behaviour.md): within the alarm's timeout the alarm sounds again; after it, the rest
    /// counts as a set and the station is idle.
    @Test func aRestThatEndedWhileTheStationWasDownSoundsItsAlarmOrCountsItsSet() throws {
        try "[rest]\ndefault_seconds = 2\nmin_seconds = 1\nwarning_seconds = 0\nalarm_timeout_seconds = 6\n"
            .write(toFile: "\(directory)/late.toml", atomically: true, encoding: .utf8)
        let first = try headless("late-1", data: "late", config: "late.toml")
        first.send("0 click start")
        #expect(eventually(10) { shown("late-1", "0001") != nil }, "the rest began")
        let deadline = try #require(shown("late-1", "0001")) + 1
        first.signal(SIGKILL)
        first.wait()
        #expect(eventually(5) { Date().timeIntervalSince1970 > deadline + 0.2 })

        // Down past the deadline, within the alarm's timeout: the alarm from t 0.
        let second = try headless("late-2", data: "late", config: "late.toml")
        #expect(eventually(10) { litAtStart("late-2", "alarm") }, "the alarm sounds again")
        second.signal(SIGKILL)
        second.wait()
        #expect(changes("late-2", "audio").contains { $0["t"]?.number == 0 && $0["sound"]?.string == "alarm" })
        #expect(Date().timeIntervalSince1970 < deadline + 6, "the test checked it within the timeout")
        #expect(eventually(10) { Date().timeIntervalSince1970 > deadline + 6.2 })

        // Down past the alarm's timeout: idle, the rest counted as a set, recorded on a hold of dismiss.
        let third = try headless("late-3", data: "late", config: "late.toml")
        #expect(eventually(10) { litAtStart("late-3", "ready") }, "idle from t 0")
        #expect(!litAtStart("late-3", "alarm"))
        third.send("0 hold dismiss 2.3")
        third.send("2.6 end")
        #expect(third.wait(upTo: 15) == 0)
        let records = try HistoryStore.reading(path: "\(directory)/late/history.sqlite").workouts()
        #expect(records.map(\.sets) == [1], "one rest workout of one set: \(records)")
    }
}
