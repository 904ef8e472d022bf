import GymTimerCore
import Testing
@testable import GymTimerDrivers

@Suite struct ToneSynthesizerTests {
    let rate = 48_000

    @Test func toneHasItsFrequency() {
        let samples = ToneSynthesizer(sampleRate: rate).tone(frequency: 1000, duration: .milliseconds(500))
        let slice = samples[...]
        #expect(abs(Signal.zeroCrossingFrequency(slice, sampleRate: rate) - 1000) < 10)
        let on = Signal.power(slice, frequency: 1000, sampleRate: rate)
        #expect(on > 100 * Signal.power(slice, frequency: 900, sampleRate: rate))
        #expect(on > 100 * Signal.power(slice, frequency: 1100, sampleRate: rate))
    }

    @Test(arguments: [
        Sound.alarm, .warning, .complete, .restOver, .setCompleting(3), .setCompleting(12),
        .go, .work, .rest, .round(3), .halfway, .lastMinute, .timeCap, .personalRecord,
    ])
    func builtInSoundLastsItsCatalogueLength(_ sound: Sound) {
        let expected = Int(SoundCatalog.period(of: sound).nanoseconds) * rate / 1_000_000_000
        #expect(SoundLibrary.pattern(for: sound).duration == SoundCatalog.period(of: sound))
        #expect(ToneSynthesizer(sampleRate: rate).render(SoundLibrary.pattern(for: sound)).count == expected)
        #expect(toneLibrary().samples(for: sound, sampleRate: rate).count == expected)
        #expect(toneLibrary().samples(for: sound, sampleRate: 44_100).count == expected * 44_100 / rate)
    }

    @Test func durationIsExactAtOddRates() {
        let synth = ToneSynthesizer(sampleRate: 22_050)
        let pattern = TonePattern([.note(440, 33), .silence(17), .note(660, 51)])
        #expect(synth.render(pattern).count == synth.frames(.milliseconds(101)))
    }

    @Test(arguments: [Sound.alarm, .warning, .complete, .restOver, .setCompleting(2)])
    func neverClips(_ sound: Sound) {
        let loud = toneLibrary().samples(for: sound, sampleRate: rate)[...]
        #expect(Signal.peak(loud) <= Int(ToneSynthesizer.fullScale))
        #expect(Signal.peak(loud) > Int(ToneSynthesizer.fullScale * 0.99), "volume 100 uses the full range")
        let half = toneLibrary(volume: 50).samples(for: sound, sampleRate: rate)[...]
        #expect(abs(Signal.peak(half) - Int(ToneSynthesizer.fullScale / 2)) < 200)
        #expect(Signal.peak(toneLibrary(volume: 0).samples(for: sound, sampleRate: rate)[...]) == 0)
    }

    @Test(arguments: [Sound.alarm, .warning, .complete, .restOver, .setCompleting(2)])
    func startsAndEndsWithoutAClick(_ sound: Sound) {
        let synth = ToneSynthesizer(sampleRate: rate)
        let samples = synth.render(SoundLibrary.pattern(for: sound))
        #expect(abs(Int(samples.first!)) < 50)
        #expect(abs(Int(samples.last!)) < 50)
        // Every tone's edges fade: no step is larger than a full-amplitude sine's steepest slope
        // at the pattern's highest frequency.
        let highest = SoundLibrary.pattern(for: sound).steps.compactMap { step -> Double? in
            if case .tone(let frequency, _) = step { return frequency } else { return nil }
        }.max()!
        let bound = synth.amplitude * 2 * Double.pi * highest / Double(rate) * 1.02 + 2
        #expect(Double(Signal.maxStep(samples[...])) <= bound)
    }

    @Test func eachToneFadesInAndOut() {
        let synth = ToneSynthesizer(sampleRate: rate)
        let samples = synth.tone(frequency: 2000, duration: .milliseconds(100))
        let fade = synth.frames(ToneSynthesizer.defaultFade)
        #expect(samples.first == 0 && samples.last == 0)
        // Within the first millisecond the envelope is below 10 %: no sudden onset.
        #expect(Signal.peak(samples[0..<48]) < Int(synth.amplitude * 0.1))
        #expect(Signal.peak(samples[(samples.count - 48)...]) < Int(synth.amplitude * 0.1))
        #expect(Signal.peak(samples[fade..<(samples.count - fade)]) > Int(synth.amplitude * 0.99))
    }

    @Test func alarmAlternatesTwoTones() {
        let samples = toneLibrary().samples(for: .alarm, sampleRate: rate)
        let high = samples[0..<(rate * 225 / 1000)]
        let low = samples[(rate * 250 / 1000)..<(rate * 475 / 1000)]
        #expect(abs(Signal.zeroCrossingFrequency(high, sampleRate: rate) - 1175) < 15)
        #expect(abs(Signal.zeroCrossingFrequency(low, sampleRate: rate) - 880) < 15)
    }
}
