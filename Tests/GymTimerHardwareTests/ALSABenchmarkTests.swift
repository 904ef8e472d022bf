import Foundation
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import Testing
@testable import GymTimerHardware

/// The benchmark's plumbing through a real alsa-lib PCM (a `file` PCM, no sound card). Only the
/// table's shape is checked: timings on a shared CI machine prove nothing.
@Suite struct ALSABenchmarkTests {
    @Test func measuresEveryCueAndPrintsATable() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gymtimer-bench-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: file) }
        let library = SoundLibrary(configuration: .init(speech: nil), log: { _ in })
        let (rows, header) = try AudioLatencyBenchmark.measure(
            pcmName: "capture", runs: 3, library: library,
            configuration: ALSAPCMOutputTests.capture(to: file)
        )
        #expect(rows.count == 2 * AudioLatencyBenchmark.defaultCues.count)
        #expect(rows.allSatisfy { $0.samples.count + $0.timeouts == 3 })
        #expect(header.contains("'capture' (48000 Hz"))
        let table = AudioLatencyBenchmark.table(rows, header: header)
        for cue in AudioLatencyBenchmark.defaultCues { #expect(table.contains(cue.name)) }
        #expect(table.contains("play → first sample"))
        #expect(table.contains("stop → dropped"))
        #expect(table.contains("20.00 ms") && table.contains("50.00 ms"))
    }

    @Test func statisticsAndVerdict() {
        let samples = (1...100).map { Duration.milliseconds($0) }
        let row = AudioLatencyBenchmark.Row(cue: "alarm", measure: "m", samples: samples, timeouts: 0, target: .milliseconds(99))
        #expect(row.median == .milliseconds(51))
        #expect(row.p99 == .milliseconds(99))
        #expect(row.max == .milliseconds(100))
        #expect(row.meetsTarget)
        var missed = row
        missed.target = .milliseconds(98)
        #expect(!missed.meetsTarget)
        #expect(AudioLatencyBenchmark.format(.microseconds(1_234)) == "1.23 ms")
        #expect(AudioLatencyBenchmark.format(.microseconds(40)) == "0.04 ms")
    }

    @Test func unknownPCMThrows() {
        #expect(throws: HALError.self) {
            try AudioLatencyBenchmark.run(pcmName: "nosuchpcm", runs: 1, configuration: "pcm.other { type null }")
        }
    }
}
