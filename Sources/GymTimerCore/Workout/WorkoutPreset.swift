/// One guided session: a named list of exercises, each followed by a rest, in whole seconds.
public struct WorkoutPreset: Hashable, Sendable, Codable {
    /// How the preset is chosen in the config (`workout.preset`) and on the menu.
    public var name: String
    public var exerciseSeconds: Int
    /// The rest between two exercises (none after the last).
    public var restSeconds: Int
    /// The calories a whole session is credited with.
    public var calories: Int
    /// The exercises in order; never empty in a validated config.
    public var exercises: [String]

    public init(name: String, exerciseSeconds: Int, restSeconds: Int, calories: Int, exercises: [String]) {
        self.name = name
        self.exerciseSeconds = exerciseSeconds
        self.restSeconds = restSeconds
        self.calories = calories
        self.exercises = exercises
    }

    /// The built-in preset (config.md): eight exercises of 30 s with 15 s rests.
    public static let fullBody = WorkoutPreset(
        name: "full-body", exerciseSeconds: 30, restSeconds: 15, calories: 150,
        exercises: [
            "Jumping jacks", "Squats", "Push-ups", "Lunges", "Plank", "Burpees", "Mountain climbers", "Sit-ups",
        ]
    )
}
