/// The `[audio]` section of the config: the ALSA output and its cues.
public struct AudioSettings: Hashable, Sendable, Codable {
    /// Off: every cue is carried by the buzzer and display alone.
    public var enabled: Bool
    /// The ALSA PCM device name (`default`, `plughw:1,0`, …).
    public var device: String
    /// Playback volume in percent, 0…100.
    public var volume: Int
    /// A directory of WAV files that replace the built-in sounds of the same name, if any.
    public var soundsDirectory: String?
    /// Whether spoken cues (espeak-ng) are used where the behaviour calls for words.
    public var speech: Bool

    public init(
        enabled: Bool = true, device: String = "default", volume: Int = 80, soundsDirectory: String? = nil,
        speech: Bool = true
    ) {
        self.enabled = enabled
        self.device = device
        self.volume = volume
        self.soundsDirectory = soundsDirectory
        self.speech = speech
    }
}
