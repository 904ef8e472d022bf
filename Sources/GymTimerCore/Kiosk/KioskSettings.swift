/// Everything the core needs from the config file, already validated.
public struct KioskSettings: Hashable, Sendable, Codable {
    public var rest: RestSettings
    /// The mode shown at start-up.
    public var startMode: StartMode
    public var interval: IntervalSettings
    public var workout: WorkoutSettings
    /// The programs on offer (`[[programs]]`, or the built-ins).
    public var programs: ProgramSettings

    public init(
        rest: RestSettings = RestSettings(), startMode: StartMode = .rest,
        interval: IntervalSettings = IntervalSettings(), workout: WorkoutSettings = WorkoutSettings(),
        programs: ProgramSettings = ProgramSettings()
    ) {
        self.programs = programs
        self.rest = rest
        self.startMode = startMode
        self.interval = interval
        self.workout = workout
    }
}
