import Foundation
import GymTimerCore
import GymTimerSystem
import Synchronization

/// Turns a `Sound` into mono Int16 samples at the output's rate, and keeps them.
///
/// Where each sound comes from, first match wins:
/// 1. `<soundsDirectory>/<name>.wav`, the owner's override (played at its own length; for a
///    looping sound it is one loop period). A broken file is logged once and skipped.
/// 2. For spoken cues (`complete`, `set-N`, the program calls `go`, `work`, `rest`, `round-N`,
///    `halfway`, `last-minute`, `time-cap`, and `personal-record`): espeak-ng speech, rendered once into
///    `cacheDirectory` and fitted to the cue's length in `SoundCatalog`.
/// 3. The built-in tone pattern, exactly as long as `SoundCatalog` says.
///
/// Safe to use from any thread: the playback thread asks for samples while the runtime may
/// `prepare` cues on another; slow work (espeak, file reads) runs outside the lock.
public final class SoundLibrary: Sendable {
    /// Where sounds come from and how loud they are.
    public struct Configuration: Sendable {
        /// Loudness 0...100 for every sound (tones, speech and overrides).
        public var volume: Int
        /// Directory searched for `<name>.wav` overrides; nil for none.
        public var soundsDirectory: URL?
        /// Directory where rendered speech is kept between runs.
        public var cacheDirectory: URL
        /// The speech renderer; nil uses tone patterns for spoken cues.
        public var speech: SpeechSynthesizer?

        public init(
            volume: Int = 100,
            soundsDirectory: URL? = nil,
            cacheDirectory: URL = FileManager.default.temporaryDirectory.appendingPathComponent("gymtimer-sounds"),
            speech: SpeechSynthesizer? = SpeechSynthesizer()
        ) {
            self.volume = min(100, max(0, volume))
            self.soundsDirectory = soundsDirectory
            self.cacheDirectory = cacheDirectory
            self.speech = speech
        }
    }

    private struct Key: Hashable {
        var sound: Sound
        var sampleRate: Int
    }

    private struct State {
        var cache: [Key: [Int16]] = [:]
        var faults: FaultLog
    }

    public let configuration: Configuration
    private let state: Mutex<State>

    /// `log` receives one line per fault (missing espeak-ng, a broken override), not per cue.
    public init(configuration: Configuration = Configuration(), log: @escaping @Sendable (String) -> Void) {
        self.configuration = configuration
        self.state = Mutex(State(faults: FaultLog(sink: log)))
    }

    /// The samples of one play (or one loop period) of `sound` at `sampleRate`.
    public func samples(for sound: Sound, sampleRate: Int) -> [Int16] {
        let key = Key(sound: sound, sampleRate: sampleRate)
        if let cached = state.withLock({ $0.cache[key] }) { return cached }
        let samples = load(sound, sampleRate: sampleRate)
        state.withLock { $0.cache[key] = samples }
        return samples
    }

    /// Loads `sounds` ahead of time (espeak-ng takes a moment per phrase), so that playing them
    /// later starts within milliseconds. Call it off the event loop.
    public func prepare(_ sounds: [Sound], sampleRate: Int) {
        for sound in sounds { _ = samples(for: sound, sampleRate: sampleRate) }
    }

    /// The built-in tone pattern of `sound` (from `SoundCatalog`); its length equals
    /// `SoundCatalog.period(of:)`.
    public static func pattern(for sound: Sound) -> TonePattern { SoundCatalog.cue(for: sound).tones }

    /// What espeak-ng says for `sound` (from `SoundCatalog`), or nil for a sound that is only a tone.
    public static func spokenText(for sound: Sound) -> String? { SoundCatalog.cue(for: sound).spoken }

    /// A broken override, as logged: what is wrong with the file, and that the built-in plays.
    private struct OverrideIgnored: Error, CustomStringConvertible {
        var reason: WAVError
        var description: String { "\(reason); playing the built-in sound instead" }
    }

    // MARK: - Loading

    private func load(_ sound: Sound, sampleRate: Int) -> [Int16] {
        if let override = loadOverride(sound, sampleRate: sampleRate) { return override }
        let length = ToneSynthesizer(sampleRate: sampleRate).frames(SoundCatalog.period(of: sound))
        if let speech = loadSpeech(sound, sampleRate: sampleRate) {
            return Self.fit(Self.trimSilence(speech), frames: length, sampleRate: sampleRate)
        }
        let tones = ToneSynthesizer(sampleRate: sampleRate, volume: configuration.volume).render(Self.pattern(for: sound))
        return Self.fit(tones, frames: length, sampleRate: sampleRate)
    }

    private func loadOverride(_ sound: Sound, sampleRate: Int) -> [Int16]? {
        guard let directory = configuration.soundsDirectory else { return nil }
        let file = directory.appendingPathComponent(SoundCatalog.overrideFileName(of: sound))
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        do throws(WAVError) {
            let samples = try WAVReader.read(contentsOf: file, sampleRate: sampleRate)
            state.withLock { $0.faults.succeeded(file.path) }
            return scaled(samples)
        } catch {
            state.withLock { $0.faults.failed("sound override '\(sound.name)'", OverrideIgnored(reason: error)) }
            return nil
        }
    }

    private func loadSpeech(_ sound: Sound, sampleRate: Int) -> [Int16]? {
        guard let speech = configuration.speech, let text = Self.spokenText(for: sound) else { return nil }
        let file = configuration.cacheDirectory.appendingPathComponent("speech-\(sound.name)-\(speech.wordsPerMinute).wav")
        if let cached = try? WAVReader.read(contentsOf: file, sampleRate: sampleRate) { return scaled(cached) }
        do {
            try FileManager.default.createDirectory(at: configuration.cacheDirectory, withIntermediateDirectories: true)
            // Render beside the target and rename, so a crash never leaves half a file in the cache.
            let partial = configuration.cacheDirectory.appendingPathComponent(".\(UUID().uuidString).wav")
            defer { try? FileManager.default.removeItem(at: partial) }
            try speech.render(text, to: partial)
            let samples = try WAVReader.read(contentsOf: partial, sampleRate: sampleRate)
            _ = try? FileManager.default.removeItem(at: file)
            try? FileManager.default.moveItem(at: partial, to: file)
            state.withLock { $0.faults.succeeded("speech") }
            return scaled(samples)
        } catch {
            state.withLock { $0.faults.failed("speech", error) }
            return nil
        }
    }

    private func scaled(_ samples: [Int16]) -> [Int16] {
        guard configuration.volume < 100 else { return samples }
        let gain = Double(configuration.volume) / 100
        return samples.map { Int16((Double($0) * gain).rounded()) }
    }

    /// Drops the near-silent lead-in and tail espeak-ng adds, so the words start at once.
    static func trimSilence(_ samples: [Int16], threshold: Int16 = 200) -> [Int16] {
        guard let first = samples.firstIndex(where: { abs(Int($0)) > threshold }),
              let last = samples.lastIndex(where: { abs(Int($0)) > threshold }) else { return [] }
        return Array(samples[first...last])
    }

    /// Pads with silence or cuts (with a 10 ms fade-out, so no click) to exactly `frames`.
    static func fit(_ samples: [Int16], frames: Int, sampleRate: Int) -> [Int16] {
        if samples.count <= frames { return samples + repeatElement(0, count: frames - samples.count) }
        var cut = Array(samples[0..<frames])
        let fade = min(frames, max(1, sampleRate / 100))
        for i in 0..<fade {
            let index = frames - fade + i
            let gain = 0.5 + 0.5 * cos(Double.pi * Double(i + 1) / Double(fade))
            cut[index] = Int16((Double(cut[index]) * gain).rounded())
        }
        return cut
    }
}
