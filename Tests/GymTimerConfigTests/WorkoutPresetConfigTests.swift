import GymTimerConfig
import GymTimerCore
import Testing

@Suite struct WorkoutPresetConfigTests {
    private let twoPresets = """
        [[workout.presets]]
        name = "upper-body"
        exercise_seconds = 40
        rest_seconds = 20
        calories = 120
        exercises = ["Push-ups", "Dips"]

        [[workout.presets]]
        name = "core"
        exercise_seconds = 45
        rest_seconds = 0
        exercises = ["Plank"]
        """

    @Test func presetsReplaceTheBuiltInList() throws {
        let workout = try GymTimerConfiguration.parse(twoPresets).kiosk.workout
        #expect(workout.presets == [
            WorkoutPreset(name: "upper-body", exerciseSeconds: 40, restSeconds: 20, calories: 120,
                          exercises: ["Push-ups", "Dips"]),
            WorkoutPreset(name: "core", exerciseSeconds: 45, restSeconds: 0, calories: 0, exercises: ["Plank"]),
        ])
        // full-body is gone, so without `preset` the first one is selected.
        #expect(workout.presetName == "upper-body")
    }

    @Test func presetSelectsOneOfThem() throws {
        let workout = try GymTimerConfiguration.parse("[workout]\npreset = \"core\"\n" + twoPresets).kiosk.workout
        #expect(workout.selectedPreset.name == "core")
    }

    @Test func presetMustNameOneOfThem() {
        #expect(problems("[workout]\npreset = \"full-body\"\n" + twoPresets) == [
            "workout.preset = \"full-body\": must be one of upper-body, core",
        ])
        #expect(problems("[workout]\npreset = \"legs\"") == [
            "workout.preset = \"legs\": must be one of full-body",
        ])
    }

    @Test(arguments: [
        ("exercise_seconds = 0", "workout.presets[2].exercise_seconds = 0: must be between 1 and 3600"),
        ("rest_seconds = -1", "workout.presets[2].rest_seconds = -1: must be between 0 and 3600"),
        ("calories = 100001", "workout.presets[2].calories = 100001: must be between 0 and 100000"),
        ("exercises = []", "workout.presets[2].exercises = []: must list at least one of exercise names"),
        ("exercises = \"Plank\"",
         "workout.presets[2].exercises = \"Plank\": must be a list of exercise names, like [\"…\", \"…\"]"),
        ("exercises = [\"Plank\", \"\", 3]",
         "workout.presets[2].exercises[2] = \"\": must be a non-empty string"),
        ("name = \"\"", "workout.presets[2].name = \"\": must not be empty"),
        ("name = \"upper-body\"", "workout.presets[2].name = \"upper-body\": already used by workout.presets[1]"),
        ("reps = 10", "workout.presets[2].reps: unknown key"),
    ])
    func aBadPresetIsNamedByItsPlace(line: String, message: String) {
        var second = ["name": "\"second\"", "exercises": "[\"Plank\"]"]
        let parts = line.split(separator: " = ", maxSplits: 1).map(String.init)
        second[parts[0]] = parts[1]
        let toml = """
            [[workout.presets]]
            name = "upper-body"
            exercises = ["Push-ups"]
            [[workout.presets]]
            """ + "\n" + second.map { "\($0.key) = \($0.value)" }.joined(separator: "\n")
        #expect(problems(toml).first == message)
    }

    @Test func everyBadExerciseIsReported() {
        #expect(problems("[[workout.presets]]\nname = \"x\"\nexercises = [\"Plank\", \"\", 3]") == [
            "workout.presets[1].exercises[2] = \"\": must be a non-empty string",
            "workout.presets[1].exercises[3] = 3: must be a non-empty string",
        ])
    }

    @Test func aPresetNeedsANameAndExercises() {
        #expect(problems("[[workout.presets]]\nexercise_seconds = 20") == [
            "workout.presets[1].name: required",
            "workout.presets[1].exercises: required",
        ])
    }

    @Test func anEmptyPresetListIsRefused() {
        #expect(problems("[workout]\npresets = []") == [
            "workout.presets = []: must have at least one [[workout.presets]] table",
        ])
    }
}
