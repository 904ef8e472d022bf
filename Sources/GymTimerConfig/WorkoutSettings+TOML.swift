import GymTimerCore

extension WorkoutSettings {
    /// Reads `[workout]`. A `[[workout.presets]]` list replaces the built-in presets; without
    /// `preset`, the built-in `full-body` is selected if it is still on offer, else the first preset.
    /// The most presets the display can number (`P999`).
    static let maxPresets = 999

    static func read(from reader: TOMLReader) -> WorkoutSettings {
        let defaults = WorkoutSettings()
        var firstUse: [String: String] = [:]
        let presets = reader.tables("presets") { presetReader, _ in
            let preset = WorkoutPreset.read(from: presetReader)
            if presetReader.isValid("name"), let raw = presetReader.value("name") {
                if let earlier = firstUse[preset.name] {
                    presetReader.report("name", raw, "already used by \(earlier)")
                } else {
                    firstUse[preset.name] = presetReader.path
                }
            }
            return presetReader.isValid("name") ? preset : nil
        }
        var offered = presets.map { $0.compactMap { $0 } } ?? defaults.presets
        // The display shows a preset as `P999` at most.
        if offered.count > Self.maxPresets {
            reader.report(path: reader.keyPath("presets"), value: nil, "lists \(offered.count) presets; the display can show at most \(Self.maxPresets)")
            offered = Array(offered.prefix(Self.maxPresets))
        }
        let names = offered.map(\.name)

        var presetName = reader.string("preset", default: defaults.presetName)
        if let raw = reader.value("preset") {
            if reader.isValid("preset"), !names.isEmpty, !names.contains(presetName) {
                reader.report("preset", raw, "must be one of " + names.joined(separator: ", "))
            }
        } else if !names.contains(presetName), let first = names.first {
            presetName = first
        }
        return WorkoutSettings(presets: offered, presetName: presetName)
    }
}

extension WorkoutPreset {
    /// Reads one `[[workout.presets]]` table. A preset needs a name to be chosen and exercises to
    /// run, so those two are required; its timings default to those of `full-body`.
    static func read(from reader: TOMLReader) -> WorkoutPreset {
        let name = reader.string("name", default: "")
        if reader.value("name") == nil { reader.report("name", nil, "required") }
        Program.checkName(name, in: reader)
        let exerciseSeconds = reader.int("exercise_seconds", default: fullBody.exerciseSeconds, in: 1...3600)
        let restSeconds = reader.int("rest_seconds", default: fullBody.restSeconds, in: 0...3600)
        let calories = reader.int("calories", default: 0, in: 0...100_000)
        let exercises = reader.stringList("exercises", default: [], describing: "exercise names")
        if reader.value("exercises") == nil { reader.report("exercises", nil, "required") }
        // The terminal kiosk and the history show each exercise's name as it is.
        if reader.isValid("exercises"), let raw = reader.value("exercises"),
           let (number, problem) = exercises.enumerated().lazy.compactMap({ n, exercise in NameText.problem(exercise).map { (n + 1, $0) } }).first {
            reader.report("exercises", raw, "exercise \(number) \(problem)")
        }
        return WorkoutPreset(
            name: name, exerciseSeconds: exerciseSeconds, restSeconds: restSeconds, calories: calories,
            exercises: exercises)
    }
}
