import GymTimerCore
import GymTimerDrivers
import GymTimerSimulation
import Testing
@testable import GymTimerBenchmark
@testable import GymTimerRuntime
@testable import GymTimerSimulator

/// A simulated month of random use — presses, holds, turns, bounces, controller restarts and
/// audio faults — through the whole runtime in virtual time, checking the invariants a person
/// at the station relies on, line by line of the trace.
@Suite struct SoakTests {
    static let settings = KioskSettings()
    static let days = 30

    @Test func aMonthOfRandomUseKeepsEveryInvariant() throws {
        // The evening peak each day, to keep the run short; nights and mornings pass idle.
        let script = GymDayScript(openHours: 17...20.5, bounces: true, restarts: true).make(days: Self.days, seed: 0x50A4)
        #expect(script.steps.contains { $0.action == .restart })
        let faults = Self.audioFaults(days: Self.days, seed: 0xFA17)
        let checker = TraceInvariants(script: script, settings: Self.settings)
        var simulation: ScriptedSimulation?
        simulation = try ScriptedSimulation(script: script, settings: Self.settings, write: { line in
            let t = checker.check(line)
            // The sound device comes and goes; the kiosk sees it at its next cue.
            simulation?.sound.isAvailable = !faults.contains { $0.contains(t) }
        })
        try simulation!.run()
        checker.finish(at: script.end.seconds)
        #expect(checker.lines > 10_000)
        #expect(checker.alarmEnds.count > 100, "the month must reach many alarms")
        #expect(checker.problems.isEmpty, "\(checker.problems.prefix(10).joined(separator: "\n"))")

        // One record per ended workout that had sets, with exactly those sets.
        let expected = checker.expectedRecords()
        let records = simulation!.history.records
        #expect(expected.count > 10)
        #expect(records.count == expected.count)
        for (record, (endedAt, sets)) in zip(records, expected) {
            #expect(record.kind == .rest)
            #expect(record.sets == sets && record.sets > 0)
            #expect(abs(record.endedAt.sinceOrigin.seconds - endedAt) < 0.002, "record at \(record.endedAt), expected \(endedAt)")
        }
    }

    /// A few random audio outages (seconds from the start), some days none.
    static func audioFaults(days: Int, seed: UInt64) -> [ClosedRange<Double>] {
        var rng = SeededGenerator(seed: seed)
        return (0..<days).compactMap { day in
            guard Int.random(in: 0..<3, using: &rng) != 0 else { return nil }
            let start = Double(day) * 86_400 + 17 * 3600 + .random(in: 0...10_000, using: &rng)
            return start...(start + .random(in: 60...3600, using: &rng))
        }
    }
}

/// Checks a trace as it is written; collects the alarms' ends for the history check.
final class TraceInvariants {
    private let settings: KioskSettings
    /// When each start or dismiss press began, to explain why an alarm ended.
    private let pressTimes: [Double]
    /// When each long dismiss press becomes a hold (the end of a workout).
    let workoutEnds: [Double]
    private(set) var problems: [String] = []
    private(set) var lines = 0
    private(set) var alarmEnds: [Double] = []
    private var last = 0.0
    private var alarmSince: Double?
    private var buzzerOnSince: Double?
    /// The longest the buzzer may stay on outside an alarm: the long beep.
    static let buzzerBound = BuzzerPattern.longBeep.period.seconds + 0.001

    init(script: SimulationScript, settings: KioskSettings) {
        self.settings = settings
        var presses: [Double] = [], ends: [Double] = []
        for step in script.steps {
            switch step.action {
            case .click(let b), .bounce(let b), .press(let b): if b == "start" || b == "dismiss" { presses.append(step.time.seconds) }
            case .hold(let b, let length):
                presses.append(step.time.seconds)
                if b == "dismiss" && length >= .seconds(2) { ends.append(step.time.seconds + 2.010) }
            default: break
            }
        }
        pressTimes = presses
        workoutEnds = ends
    }

    /// Checks one trace line; returns its time.
    @discardableResult
    func check(_ line: String) -> Double {
        lines += 1
        guard let t = Self.field(line, "\"t\":", ","), let time = Double(t),
              let device = Self.field(line, "\"device\":\"", "\"") else {
            problems.append("unreadable line: \(line)")
            return last
        }
        if time < last { problems.append("out of time order at \(time) after \(last)") }
        last = time
        if alarmSince == nil, let on = buzzerOnSince, time - on > Self.buzzerBound {
            problems.append("buzzer on outside an alarm from \(on) to at least \(time)")
            buzzerOnSince = nil
        }
        switch device {
        case "display":
            let text = Self.field(line, "\"text\":\"", "\"") ?? "?"
            if !Self.isValid(text) { problems.append("invalid display '\(text)' at \(time)") }
        case "buzzer":
            let on = line.contains("\"on\":true")
            if on, buzzerOnSince == nil { buzzerOnSince = time }
            if !on {
                if alarmSince == nil, let since = buzzerOnSince, time - since > Self.buzzerBound {
                    problems.append("buzzer on outside an alarm from \(since) to \(time)")
                }
                buzzerOnSince = nil
            }
        case "led" where line.contains("\"name\":\"alarm\""):
            let on = line.contains("\"on\":true")
            if on, alarmSince == nil { alarmSince = time }
            if !on, let since = alarmSince {
                endAlarm(started: since, at: time)
                alarmSince = nil
                // The alarm's buzzer stops with it; anything after is held to the bound.
                if buzzerOnSince != nil { buzzerOnSince = time }
            }
        default: break
        }
        return time
    }

    /// Checks what is still sounding when the script ends.
    func finish(at end: Double) {
        if let since = alarmSince, end - since > Double(settings.rest.alarmTimeoutSeconds) + 0.001 {
            problems.append("alarm from \(since) still on at the end \(end), past its timeout")
        }
        if alarmSince == nil, let on = buzzerOnSince, end - on > Self.buzzerBound {
            problems.append("buzzer on outside an alarm from \(on) to the end")
        }
    }

    /// An alarm ends by its timeout or by a debounced start or dismiss press (10 ms settle,
    /// 2 ms more for a bouncing contact).
    private func endAlarm(started: Double, at time: Double) {
        alarmEnds.append(time)
        let timeout = Double(settings.rest.alarmTimeoutSeconds)
        let length = time - started
        if length > timeout + 0.001 { problems.append("alarm from \(started) lasted \(length) s, past its timeout") }
        let byTimeout = abs(length - timeout) <= 0.001
        let byPress = pressTimes.contains { time - $0 >= 0.0099 && time - $0 <= 0.0131 }
        if !byTimeout && !byPress { problems.append("alarm from \(started) ended at \(time) by neither press nor timeout") }
    }

    /// (time, sets) of each record the history must hold: every alarm end is a set, and a
    /// workout ended with sets is recorded with them.
    func expectedRecords() -> [(Double, Int)] {
        var records: [(Double, Int)] = []
        var sets = 0
        var alarms = alarmEnds[...]
        for end in workoutEnds {
            while let next = alarms.first, next <= end {
                sets += 1
                alarms = alarms.dropFirst()
            }
            if sets > 0 { records.append((end, sets)) }
            sets = 0
        }
        return records
    }

    /// Four characters the 7-segment font can show, in rest mode either dark or MM:SS.
    static func isValid(_ text: String) -> Bool {
        guard text.count == 4, text.allSatisfy({ $0 == " " || SevenSegmentFont.segments(for: $0) != 0 }) else { return false }
        if text == "    " { return true }
        guard let seconds = KioskBenchmark.seconds(shownAs: text) else { return false }
        return Array(text)[2] < "6" && seconds <= 99 * 60 + 59
    }

    /// The text between `start` and the next `end` in `line`.
    static func field(_ line: String, _ start: String, _ end: String) -> String? {
        guard let from = line.range(of: start), let to = line[from.upperBound...].range(of: end) else { return nil }
        return String(line[from.upperBound..<to.lowerBound])
    }
}
