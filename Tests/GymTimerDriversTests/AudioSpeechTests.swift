import Foundation
import GymTimerCore
import GymTimerTestSupport
import Testing
@testable import GymTimerDrivers

@Suite struct AudioSpeechTests {
    static let espeak = MachineRequirement(SpeechSynthesizer().resolve() != nil, "no espeak-ng on this machine (apt-get install espeak-ng)")

    @Test func missingEspeakFallsBackToTonesLoggedOnce() throws {
        let log = LogLines()
        let library = SoundLibrary(
            configuration: .init(cacheDirectory: try temporaryDirectory("cache"), speech: SpeechSynthesizer(program: "/nonexistent/espeak-ng")),
            log: log.sink
        )
        #expect(library.samples(for: .setCompleting(3), sampleRate: 48_000) == toneLibrary().samples(for: .setCompleting(3), sampleRate: 48_000))
        #expect(library.samples(for: .complete, sampleRate: 48_000) == toneLibrary().samples(for: .complete, sampleRate: 48_000))
        #expect(log.all.count == 1)
        #expect(log.all.first?.contains("espeak-ng is not installed") == true)
    }

    @Test func spokenTexts() {
        #expect(SoundLibrary.spokenText(for: .setCompleting(4)) == "Set 4 completing in 3, 2, 1")
        #expect(SoundLibrary.spokenText(for: .complete) == "Workout complete")
        #expect(SoundLibrary.spokenText(for: .alarm) == nil)
        let calls: [Sound] = [.go, .rest, .work, .round(3), .halfway, .lastMinute, .timeCap]
        #expect(calls.map(SoundLibrary.spokenText) == [
            "Go", "Rest", "Work", "Round 3", "Halfway", "Last minute", "Time cap",
        ])
    }

    @Test(.enabled(if: espeak.runs, "espeak-ng is installed"), espeak)
    func speechIsRenderedOnceIntoTheCacheAndFitsTheCue() throws {
        let cache = try temporaryDirectory("cache")
        let log = LogLines()
        let library = SoundLibrary(configuration: .init(cacheDirectory: cache), log: log.sink)
        let samples = library.samples(for: .setCompleting(12), sampleRate: 48_000)
        #expect(samples.count == 48_000 * 2800 / 1000)
        #expect(samples != toneLibrary().samples(for: .setCompleting(12), sampleRate: 48_000))
        let cached = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(cached == ["speech-set-12-190.wav"])
        #expect(log.all.isEmpty)
    }

    @Test(.enabled(if: espeak.runs, "espeak-ng is installed"), espeak)
    func programCallsAreSpokenWithinTheirCueLength() throws {
        let library = SoundLibrary(configuration: .init(cacheDirectory: try temporaryDirectory("cache")), log: { _ in })
        for call: Sound in [.go, .work, .rest, .round(12), .halfway, .lastMinute, .timeCap] {
            let samples = library.samples(for: call, sampleRate: 16_000)
            let frames = Int(SoundCatalog.period(of: call).nanoseconds / 1_000_000) * 16
            #expect(samples.count == frames, "\(call) is exactly its cue length")
            #expect(samples != toneLibrary().samples(for: call, sampleRate: 16_000), "\(call) is speech")
            #expect(samples.suffix(160).allSatisfy { abs(Int($0)) < 2_000 }, "\(call) fits without being cut")
        }
    }
}
