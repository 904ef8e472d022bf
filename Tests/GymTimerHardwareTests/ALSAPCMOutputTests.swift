import Dispatch
import Foundation
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import Synchronization
import Testing
import GymTimerTestSupport
@testable import GymTimerHardware

/// The real alsa-lib path with no sound card: a `file` PCM writes what it is given to a WAV file
/// through the `null` PCM. The configuration is passed to `snd_pcm_open_lconf`, so no
/// environment variable changes and other tests in the process are unaffected.
@Suite struct ALSAPCMOutputTests {
    static func capture(to file: URL, name: String = "capture") -> String {
        """
        pcm.\(name) {
            type file
            slave.pcm { type null }
            file "\(file.path)"
            format "wav"
        }
        """
    }

    func temporaryFile() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gymtimer-alsa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("capture.wav")
    }

    @Test func opensMono48kHzWithAShortBuffer() throws {
        let output = try ALSAPCMOutput(name: "capture", configuration: Self.capture(to: try temporaryFile()))
        #expect(output.sampleRate == 48_000)
        #expect(output.latency >= .milliseconds(20) && output.latency <= .milliseconds(50))
    }

    @Test func playsTheAlarmIntoAFileAndStopsIt() throws {
        let file = try temporaryFile()
        let output = try ALSAPCMOutput(name: "capture", configuration: Self.capture(to: file))
        let library = SoundLibrary(configuration: .init(speech: nil), log: { _ in })
        let alarm = library.samples(for: .alarm, sampleRate: output.sampleRate)
        var written = 0
        while written < alarm.count {
            written += try output.write(alarm[written...])
        }
        try output.stop()
        output.close()

        let captured = try WAVReader.read(contentsOf: file)
        #expect(captured.sampleRate == 48_000)
        #expect(captured.samples.count <= alarm.count, "nothing is written after stop")
        let rate = captured.sampleRate
        let high = captured.samples.prefix(rate * 225 / 1000)
        #expect(high.count == rate * 225 / 1000)
        #expect(abs(AudioSignal.zeroCrossingFrequency(high, sampleRate: rate) - 1175) < 15)
        #expect(captured.samples.prefix(high.count) == alarm.prefix(high.count))
    }

    @Test func playerLoopsTheAlarmThroughALSAUntilStopped() throws {
        let file = try temporaryFile()
        let configuration = Self.capture(to: file)
        let counter = CountingPCM.Counter(signalAfter: 48_000 * 5 / 2)
        let library = SoundLibrary(configuration: .init(speech: nil), log: { _ in })
        let player = PCMSoundPlayer(library: library, log: { line in Issue.record("unexpected log: \(line)") }) {
            () throws(HALError) -> any PCMOutput in
            CountingPCM(try ALSAPCMOutput(name: "capture", configuration: configuration), counter: counter)
        }
        player.play(.alarm, at: .origin)
        counter.reached.wait()
        player.play(nil, at: .origin)
        player.waitUntilIdle()
        let writtenAtStop = counter.total
        player.play(nil, at: .origin)
        player.waitUntilIdle()
        #expect(counter.total == writtenAtStop, "nothing is written once stopped")
        player.shutdown() // closes the PCM, which completes the WAV file

        let captured = try WAVReader.read(contentsOf: file)
        let rate = captured.sampleRate
        let period = library.samples(for: .alarm, sampleRate: rate)
        #expect(captured.samples.count >= 2 * period.count, "the alarm looped")
        #expect(captured.samples.count <= writtenAtStop)
        #expect(Array(captured.samples[0..<period.count]) == period)
        #expect(Array(captured.samples[period.count..<(2 * period.count)]) == period)
        let high = captured.samples[period.count..<(period.count + rate * 225 / 1000)]
        #expect(abs(AudioSignal.zeroCrossingFrequency(high, sampleRate: rate) - 1175) < 15)
    }

    @Test func missingDeviceIsNoSuchDeviceWithAHint() {
        #expect(throws: HALError.self) { try ALSAPCMOutput(name: "nosuchpcm", configuration: "pcm.other { type null }") }
        do {
            _ = try ALSAPCMOutput(name: "nosuchpcm", configuration: "pcm.other { type null }")
        } catch {
            guard case .noSuchDevice(let device, let hint) = error else { Issue.record("got \(error)"); return }
            #expect(device.contains("nosuchpcm"))
            #expect(hint.contains("aplay -L"))
        }
    }
}

/// Passes writes to a real output and counts the frames it accepted.
final class CountingPCM: PCMOutput {
    /// Shared with the test thread: the count is behind a lock.
    final class Counter: Sendable {
        let reached = DispatchSemaphore(value: 0)
        private let frames = Mutex(0)
        private let threshold: Int
        init(signalAfter threshold: Int) { self.threshold = threshold }
        var total: Int { frames.withLock { $0 } }
        func add(_ count: Int) {
            let crossed = frames.withLock { total -> Bool in
                let before = total
                total += count
                return before < threshold && total >= threshold
            }
            if crossed { reached.signal() }
        }
    }

    let inner: ALSAPCMOutput
    let counter: Counter
    init(_ inner: ALSAPCMOutput, counter: Counter) {
        self.inner = inner
        self.counter = counter
    }
    var name: String { inner.name }
    var sampleRate: Int { inner.sampleRate }
    func write(_ samples: ArraySlice<Int16>) throws(HALError) -> Int {
        let accepted = try inner.write(samples)
        counter.add(accepted)
        return accepted
    }
    func stop() throws(HALError) { try inner.stop() }
}
