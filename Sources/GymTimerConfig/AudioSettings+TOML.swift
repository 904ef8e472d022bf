extension AudioSettings {
    /// Reads `[audio]`; an empty `sounds_dir` means no overrides, the same as leaving it out.
    static func read(from reader: TOMLReader) -> AudioSettings {
        let defaults = AudioSettings()
        let enabled = reader.bool("enabled", default: defaults.enabled)
        let device = reader.string("device", default: defaults.device)
        let volume = reader.int("volume", default: defaults.volume, in: 0...100)
        let soundsDirectory = reader.string("sounds_dir", default: "", allowEmpty: true)
        let speech = reader.bool("speech", default: defaults.speech)
        return AudioSettings(
            enabled: enabled, device: device, volume: volume,
            soundsDirectory: soundsDirectory.isEmpty ? nil : soundsDirectory, speech: speech)
    }
}
