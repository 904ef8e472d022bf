/// A kiosk rebuilt from what an earlier process stored, and what rebuilding it did.
public struct KioskRestore: Sendable {
    /// How far from the save a stored moment may lie and still be trusted.
    public static let window: Duration = .seconds(31 * 86_400)

    public var kiosk: Kiosk
    /// Records of work that the new settings ended (a rest workout's counted sets), to be stored.
    public var records: [WorkoutRecord]
    /// One line per thing the owner should be told (settings changed, state not trusted).
    public var notes: [String]
    /// The stored kiosk could not be trusted (out of range); the caller sets its file aside.
    public var implausible: Bool

    /// Rebuilds the kiosk `stored` at `savedAt` under `settings` (the config as it is now).
    ///
    /// Same settings: the stored kiosk, if plausible. Changed settings (the owner edited the
    /// config and restarted): the mode in progress continues when its own settings did not
    /// change; otherwise a rest workout's counted sets are recorded and the mode starts afresh,
    /// with a note either way. A kiosk that is not plausible is never computed with.
    public init(_ stored: Kiosk?, savedAt: Moment, settings: KioskSettings) {
        kiosk = Kiosk(settings: settings)
        records = []
        notes = []
        implausible = false
        guard let stored else { return }
        if stored.settings == settings {
            guard stored.isPlausible(around: savedAt, within: Self.window) else {
                implausible = true
                notes.append("the stored running state is out of range; starting fresh")
                return
            }
            kiosk = stored
            return
        }
        var carried = stored.mode
        if case .menu(_, let previous) = carried { carried = previous }
        var candidate = Kiosk(settings: settings)
        candidate.mode = carried
        if Self.sameSettings(carried, settings), candidate.isPlausible(around: savedAt, within: Self.window) {
            kiosk = candidate
            if !stored.isIdle { notes.append("the config changed; the \(Self.name(carried)) in progress continues") }
            return
        }
        guard case .rest(var rest) = carried, rest.sets > 0 else {
            if !stored.isIdle { notes.append("the config changed; the \(Self.name(carried)) in progress was dropped") }
            return
        }
        guard rest.isPlausible(PlausibilityCheck(savedAt: savedAt, window: Self.window)) else {
            implausible = true
            notes.append("the stored running state is out of range; starting fresh")
            return
        }
        let sets = rest.sets
        records = rest.endWorkout(at: savedAt).compactMap { if case .record(let record) = $0 { record } else { nil } }
        notes.append("the config changed; the rest workout in progress (\(sets) sets) was recorded and ended")
    }

    /// Whether `mode` was made with the same settings as `settings` would make it.
    private static func sameSettings(_ mode: Kiosk.Mode, _ settings: KioskSettings) -> Bool {
        switch mode {
        case .rest(let rest): rest.settings == settings.rest
        case .interval(let interval): interval.settings == settings.interval
        case .workout(let workout):
            workout.presets == settings.workout.presets && workout.warningSeconds == settings.interval.warningSeconds
        case .program(let program):
            program.programs == Kiosk.freshProgram(settings).programs
                && program.warningSeconds == Kiosk.freshProgram(settings).warningSeconds
        case .menu: false
        }
    }

    private static func name(_ mode: Kiosk.Mode) -> String {
        switch mode {
        case .rest: "rest workout"
        case .interval: "interval workout"
        case .workout: "guided workout"
        case .program(let program): "program \(program.program.name)"
        case .menu: "mode menu"
        }
    }
}

extension Kiosk {
    /// This kiosk for a new timeline (the simulator's next run after a clean end): itself when
    /// it is idle with no workout under way and no press remembered, nil otherwise.
    public var idleCarriedOver: Kiosk? {
        guard isIdle else { return nil }
        if case .rest(let rest) = mode, rest.sets > 0 || rest.workoutStartedAt != nil { return nil }
        var copy = self
        copy.beforeStartPress = nil
        copy.startPressedAt = nil
        return copy
    }
}
