/// The `[workout]` section of the config: the presets on offer and the one selected at start-up.
public struct WorkoutSettings: Hashable, Sendable, Codable {
    /// The presets in menu order; a config that lists presets replaces the built-in one.
    public var presets: [WorkoutPreset]
    /// The name of the preset selected at start-up.
    public var presetName: String

    public init(presets: [WorkoutPreset] = [.fullBody], presetName: String = WorkoutPreset.fullBody.name) {
        self.presets = presets
        self.presetName = presetName
    }

    /// The preset named `presetName`. A validated config always has it; a hand-built value that
    /// does not falls back to the first preset, then to `fullBody`, so the kiosk still runs.
    public var selectedPreset: WorkoutPreset {
        presets.first { $0.name == presetName } ?? presets.first ?? .fullBody
    }
}
