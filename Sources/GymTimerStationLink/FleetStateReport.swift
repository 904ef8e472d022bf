import GymTimerCore
import GymTimerFleet

/// The station's retained `state` (fleet.md) from the kiosk: what changes only when the
/// state changes (never per displayed second), so equal reports are not published twice.
public struct FleetStateReport: Hashable, Sendable {
    public var mode: String
    public var phase: String
    public var program: String?
    /// When the current countdown ends, on the kiosk's timeline (a Unix time in the JSON, so
    /// that equal states compare equal whatever the wall clock does); nil when none runs.
    public var deadline: Moment?
    /// What is left of the current countdown while it is paused.
    public var remaining: Duration?
    /// The set, round or exercise under way (1 for the first); nil where there is none.
    public var round: Int?
    /// A finished program's score (`5 rounds`, `12:34, 3 rounds`), while its result shows.
    public var result: String?
    public var sets: Int
    public var restSeconds: Int?
    /// Whether a coach has locked the wall's buttons.
    public var locked: Bool
    /// The programs of the station's own config (or the built-in ones), by name: what a class
    /// may name for it without sending a definition (the console lists them).
    public var programs: [String]
    /// The brightness a coach set (percent), nil: the config's.
    public var brightness: Int?
    /// The sleep window a coach set, and whether the display sleeps now; in the JSON only
    /// once a window was set, so a station that never had one reports as before.
    public var sleepWindow: SleepWindow?
    public var asleep: Bool
    /// The card of the athlete on the station (a tap, the class list): not in the state's JSON,
    /// but on the station's own `athlete` topic (`FleetStation`), which only the coach reads.
    public var athlete: CardID?
    /// How the station records program results now, Rx or Scaled (`Kiosk.division`:
    /// `"division":"rx"`), so the coach's console sees what each athlete chose at the wall.
    public var division: Division

    /// The report of `kiosk`.
    public init(_ kiosk: Kiosk) {
        athlete = kiosk.athlete?.card
        division = kiosk.division
        sleepWindow = kiosk.sleepWindow
        programs = Kiosk.freshProgram(kiosk.settings).programs.map(\.name)
        asleep = kiosk.isAsleep
        locked = kiosk.lockedSince != nil
        brightness = kiosk.brightness
        program = nil
        deadline = nil
        sets = 0
        restSeconds = nil
        switch kiosk.mode {
        case .rest(let rest):
            mode = "rest"
            sets = rest.sets
            restSeconds = rest.durationSeconds
            switch rest.phase {
            case .idle: phase = "idle"
            case .resting(let countdown, _):
                phase = "resting"
                deadline = countdown.deadline
            case .alarm: phase = "alarm"
            case .paused(let left, _):
                phase = "paused"
                remaining = left
            }
        case .interval(let interval):
            mode = "interval"
            phase = Self.phase(of: interval.run)
            if case .running(let run) = interval.state { round = run.segment / 2 + 1 }
            describeCountdown(of: interval.run)
        case .workout(let workout):
            mode = "workout"
            phase = Self.phase(of: workout.run)
            if case .running(let run) = workout.state {
                switch workout.sessionPart(of: run) {
                case .exercise(let index), .rest(after: let index): round = index + 1
                }
            }
            describeCountdown(of: workout.run)
        case .program(let program):
            mode = "program"
            self.program = program.program.name
            phase = program.statusDetail
            if let run = program.run, !run.isFinished, !run.inLeadIn { round = run.round }
            if let run = program.run, run.isFinished { result = run.score?.description }
            describeCountdown(of: program.run)
        case .menu:
            mode = "menu"
            phase = "menu"
        }
    }

    /// `idle`, `running`, `paused` or `complete`: where a run on the program engine is.
    private static func phase(of run: ProgramRun?) -> String {
        guard let run else { return "idle" }
        if run.isFinished { return "complete" }
        return run.isPaused ? "paused" : "running"
    }

    /// The deadline of the current segment's countdown, or what is left of it while paused.
    private mutating func describeCountdown(of run: ProgramRun?) {
        guard case .running(let segments)? = run?.phase else { return }
        switch segments.timing {
        case .running: deadline = segments.segmentCountdown?.deadline
        case .paused(let left): remaining = segments.segmentEnds[segments.segment] - (segments.total - left)
        }
    }

    /// The JSON payload: these fields plus what the display shows and `t`, the Unix time of the
    /// change; `unix` converts a moment on the kiosk's timeline to Unix time. The display is
    /// the one value that may differ between equal reports.
    /// `startsAt`: the Unix instant of a class start the station has scheduled (`"starts_at"`,
    /// so the coach's tiles count down to it), nil when none.
    public func json(display: String, at t: Double, unix: (Moment) -> Double, startsAt: Double? = nil) -> String {
        FleetStateMessage(
            mode: mode, phase: phase, program: program, display: display, deadline: deadline.map { WireSeconds(unix($0)) },
            remaining: remaining.map { WireSeconds(Double($0.nanoseconds) / 1e9) }, round: round, result: result, sets: sets,
            restSeconds: restSeconds, startsAt: startsAt.map(WireSeconds.init), programs: programs, locked: locked,
            brightness: brightness, sleep: sleepWindow, asleep: asleep, division: division.rawValue,
            t: WireSeconds(t)
        ).json
    }
}
