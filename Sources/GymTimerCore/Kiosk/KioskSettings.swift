/// Everything the core needs from the config file, already validated.
public struct KioskSettings: Hashable, Sendable, Codable {
    public var rest: RestSettings
    /// The mode shown at start-up.
    public var startMode: StartMode
    public var interval: IntervalSettings
    public var workout: WorkoutSettings
    /// The programs on offer (`[[programs]]`, or the built-ins).
    public var programs: ProgramSettings
    /// How the station treats athletes who tap in (`[athletes]`).
    public var athletes: AthleteSettings

    public init(
        rest: RestSettings = RestSettings(), startMode: StartMode = .rest,
        interval: IntervalSettings = IntervalSettings(), workout: WorkoutSettings = WorkoutSettings(),
        programs: ProgramSettings = ProgramSettings(), athletes: AthleteSettings = AthleteSettings()
    ) {
        self.athletes = athletes
        self.programs = programs
        self.rest = rest
        self.startMode = startMode
        self.interval = interval
        self.workout = workout
    }

    private enum CodingKeys: String, CodingKey { case rest, startMode, interval, workout, programs, athletes }

    /// Reads stored settings; a state file written before programs existed has none, and reads
    /// as the built-ins, so a rest in progress survives the upgrade.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rest = try container.decode(RestSettings.self, forKey: .rest)
        startMode = try container.decode(StartMode.self, forKey: .startMode)
        interval = try container.decode(IntervalSettings.self, forKey: .interval)
        workout = try container.decode(WorkoutSettings.self, forKey: .workout)
        programs = try container.decodeIfPresent(ProgramSettings.self, forKey: .programs) ?? ProgramSettings()
        athletes = (try? container.decodeIfPresent(AthleteSettings.self, forKey: .athletes)) ?? AthleteSettings()
    }
}
