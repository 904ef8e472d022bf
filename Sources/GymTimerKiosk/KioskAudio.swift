import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerHardware

/// The kiosk's sound output from the `[audio]` config: the ALSA player with its sound library,
/// or silence when audio is disabled. A missing sound card is not an error: the player logs it
/// once, the buzzer carries the cues, and the card is tried again every 30 s.
enum KioskAudio {
    static func player(_ audio: AudioSettings, kiosk: KioskSettings, log: @escaping @Sendable (String) -> Void) -> any SoundPlayer {
        guard audio.enabled else { return SilentSoundPlayer() }
        let cache = ProcessInfo.processInfo.environment["GYMTIMER_CACHE_DIR"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("gymtimer-sounds")
        let library = SoundLibrary(
            configuration: .init(
                volume: audio.volume, soundsDirectory: audio.soundsDirectory.map { URL(fileURLWithPath: $0) },
                cacheDirectory: cache, speech: audio.speech ? SpeechSynthesizer() : nil),
            log: log)
        let sets = max(kiosk.interval.sets, 1)
        // Every call a configured program can make, so each one starts on time.
        let rounds = kiosk.programs.programs.map { program -> Int in
            if case .emom(let rounds, _) = program.format { return rounds }
            return 1
        }.max() ?? 1
        let programCalls: [Sound] = [.go, .work, .rest, .halfway, .lastMinute, .timeCap, .personalRecord]
            + (rounds >= 2 ? (2...rounds).map(Sound.round) : [])
        let device = audio.device
        return PCMSoundPlayer(
            library: library,
            preload: [.alarm, .warning, .complete, .restOver] + (1...sets).map(Sound.setCompleting) + programCalls,
            log: log,
            open: { () throws(HALError) -> any PCMOutput in try ALSAPCMOutput(name: device) })
    }
}
