import Dispatch
import Foundation
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import Synchronization

/// Measures how fast cues start and stop through a real ALSA PCM and the kiosk's own player:
/// from `play` to the first sample written to ALSA (target 20 ms), and from `play(nil)` to
/// the queue dropped (target 50 ms). `gymtimer bench audio` prints its table.
public enum AudioLatencyBenchmark {
    /// Target for play → first sample written.
    public static let playTarget: Duration = .milliseconds(20)
    /// Target for stop → queue dropped.
    public static let stopTarget: Duration = .milliseconds(50)
    /// The cues measured by default: every kind the kiosk plays.
    public static let defaultCues: [Sound] = [.alarm, .warning, .complete, .restOver, .setCompleting(1)]

    /// One row of the result: a cue and a measure.
    public struct Row: Sendable {
        public var cue: String
        public var measure: String
        /// Sorted samples; empty if every run timed out.
        public var samples: [Duration]
        public var timeouts: Int
        public var target: Duration

        public var median: Duration? { samples.isEmpty ? nil : samples[samples.count / 2] }
        public var p99: Duration? { Percentile.nearestRank(99, of: samples) }
        public var max: Duration? { samples.last }
        /// Whether the 99th percentile is within the target and no run timed out.
        public var meetsTarget: Bool { timeouts == 0 && (p99.map { $0 <= target } ?? false) }
    }

    /// Plays each cue `runs` times through the PCM `pcmName` and returns a printable table.
    /// Throws if the PCM cannot be opened at all. `configuration` is alsa-lib text to use
    /// instead of the system's (see `ALSAPCMOutput`).
    public static func run(
        pcmName: String = "default", runs: Int = 100, cues: [Sound] = defaultCues,
        library: SoundLibrary? = nil, configuration: String? = nil
    ) throws(HALError) -> String {
        let (rows, header) = try measure(
            pcmName: pcmName, runs: runs, cues: cues, library: library, configuration: configuration
        )
        return table(rows, header: header)
    }

    /// The measurements behind `run`, with the table's header line.
    public static func measure(
        pcmName: String = "default", runs: Int = 100, cues: [Sound] = defaultCues,
        library: SoundLibrary? = nil, configuration: String? = nil
    ) throws(HALError) -> (rows: [Row], header: String) {
        // Open once up front: a missing device is a clear error, not a table of timeouts.
        let probe = try ALSAPCMOutput(name: pcmName, configuration: configuration)
        let header = "Audio latency on ALSA PCM '\(pcmName)' (\(probe.sampleRate) Hz, buffer \(format(probe.latency))), "
            + "\(runs) runs per cue; a target is met when p99 is within it"
        let sampleRate = probe.sampleRate
        probe.close()

        let faults = Mutex<[String]>([])
        let library = library ?? SoundLibrary(log: { line in faults.withLock { $0.append(line) } })
        library.prepare(cues, sampleRate: sampleRate) // speech is rendered now, not timed
        let timing = Timing()
        let player = PCMSoundPlayer(library: library, log: { line in faults.withLock { $0.append(line) } }) {
            () throws(HALError) -> any PCMOutput in
            TimedOutput(try ALSAPCMOutput(name: pcmName, configuration: configuration), timing: timing)
        }
        defer { player.shutdown() }
        player.waitUntilIdle()

        var rows: [Row] = []
        for cue in cues {
            var play = Row(cue: cue.name, measure: "play → first sample", samples: [], timeouts: 0, target: playTarget)
            var stop = Row(cue: cue.name, measure: "stop → dropped", samples: [], timeouts: 0, target: stopTarget)
            for _ in 0..<max(1, runs) {
                timing.arm(.firstWrite)
                let started = ContinuousClock.now
                player.play(cue, at: .origin)
                if let done = timing.wait() { play.samples.append(done - started) } else { play.timeouts += 1 }

                timing.arm(.stopped)
                let stopping = ContinuousClock.now
                player.play(nil, at: .origin)
                if let done = timing.wait() { stop.samples.append(done - stopping) } else { stop.timeouts += 1 }
                player.waitUntilIdle()
            }
            play.samples.sort()
            stop.samples.sort()
            rows += [play, stop]
        }
        let logged = faults.withLock { $0 }
        return (rows, logged.isEmpty ? header : header + "\n" + logged.joined(separator: "\n"))
    }

    /// Formats rows as an aligned text table under `header`.
    public static func table(_ rows: [Row], header: String) -> String {
        let titles = ["cue", "measure", "median", "p99", "max", "target", "result"]
        let cells = rows.map { row in
            [
                row.cue, row.measure, row.median.map(format) ?? "-", row.p99.map(format) ?? "-",
                row.max.map(format) ?? "-", format(row.target),
                (row.meetsTarget ? "ok" : "MISSED") + (row.timeouts > 0 ? " (\(row.timeouts) timed out)" : ""),
            ]
        }
        let widths = titles.indices.map { column in
            ([titles] + cells).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingTrailingSpaces()
        }
        return ([header, line(titles)] + cells.map(line)).joined(separator: "\n")
    }

    static func format(_ duration: Duration) -> String {
        let microseconds = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        let hundredths = (microseconds + 5) / 10
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
    }

    /// When the awaited event happened; shared between the benchmark and the playback thread.
    final class Timing: Sendable {
        enum Event { case firstWrite, stopped }
        private let awaited = Mutex<Event?>(nil)
        private let signal = DispatchSemaphore(value: 0)
        private let instant = Mutex<ContinuousClock.Instant?>(nil)

        func arm(_ event: Event) {
            instant.withLock { $0 = nil }
            awaited.withLock { $0 = event }
        }

        func happened(_ event: Event) {
            let now = ContinuousClock.now
            let matched = awaited.withLock { awaited -> Bool in
                guard awaited == event else { return false }
                awaited = nil
                return true
            }
            guard matched else { return }
            instant.withLock { $0 = now }
            signal.signal()
        }

        /// The instant of the armed event, or nil after a second without it.
        func wait() -> ContinuousClock.Instant? {
            guard signal.wait(timeout: .now() + .seconds(1)) == .success else {
                awaited.withLock { $0 = nil }
                return nil
            }
            return instant.withLock { $0 }
        }
    }

    /// An ALSA output that reports its first accepted write and each completed stop.
    final class TimedOutput: PCMOutput {
        let inner: ALSAPCMOutput
        let timing: Timing

        init(_ inner: ALSAPCMOutput, timing: Timing) {
            self.inner = inner
            self.timing = timing
        }

        var name: String { inner.name }
        var sampleRate: Int { inner.sampleRate }

        func write(_ samples: ArraySlice<Int16>) throws(HALError) -> Int {
            let accepted = try inner.write(samples)
            if accepted > 0 { timing.happened(.firstWrite) }
            return accepted
        }

        func stop() throws(HALError) {
            try inner.stop()
            timing.happened(.stopped)
        }
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
