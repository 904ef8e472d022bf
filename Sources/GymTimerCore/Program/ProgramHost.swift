/// A mode whose idle is its own (what it shows, what the knob chooses) and whose workout, from
/// start to result, is a `ProgramPlan` run by the program engine. The interval, workout and
/// program modes are all hosts: what they share is written once, here.
public protocol ProgramHost {
    /// The run on the engine; nil in idle. Only the host's own `handle` and `reset` set it.
    var run: ProgramRun? { get set }
    /// The plan a start runs, from the host's current choice.
    func plan() -> ProgramPlan
    /// The outputs of idle.
    func idleOutputs() -> [Effect]
    /// The knob in idle: changes the choice and returns what to show.
    mutating func turnInIdle(_ detents: Int) -> [Effect]
}

extension ProgramHost {
    public var isIdle: Bool { run == nil }

    /// Whether a finished run's result is on the display (its record kept): a press of either
    /// button, or the next class, returns to idle.
    public var showsResult: Bool { run?.isFinished == true }

    /// The outputs of the current state, for start-up and for returning to this mode.
    public func currentOutputs(at now: Moment) -> [Effect] {
        run?.currentOutputs(at: now) ?? idleOutputs()
    }

    /// The next moment this mode must be woken at, or nil when it waits for input only.
    public func nextDeadline(after now: Moment) -> Moment? { run?.nextDeadline(after: now) }

    /// Reacts to one event at `now`: idle's own inputs, or the run's.
    public mutating func handle(_ event: ControlEvent, at now: Moment) -> [Effect] {
        guard var running = run else {
            switch event {
            case .pressed(.start):
                let (started, effects) = ProgramRun.start(plan(), at: now)
                run = started
                return effects
            case .turned(let detents):
                return turnInIdle(detents)
            default:
                return []
            }
        }
        let (effects, outcome) = running.handle(event, at: now)
        run = running
        return outcome == .resets ? effects + reset(at: now) : effects
    }

    /// Starts the run of a class whose work begins at `workBegins`: its lead-in started then
    /// minus the plan's lead-in (now at the latest), so every station's work begins on the
    /// class's instant and the console's lead-in is the class's only one. Only in idle.
    public mutating func startClass(at now: Moment, workBegins: Moment) -> [Effect] {
        guard run == nil else { return [] }
        let plan = plan()
        let (started, effects) = ProgramRun.start(plan, at: now, startedAt: workBegins - .seconds(plan.leadInSeconds))
        run = started
        return effects
    }

    /// Moves the run to its class's instants (`ProgramRun.follow`); nothing to move in idle.
    public mutating func follow(_ timeline: ClassTimeline, at now: Moment) -> Result<[Effect], KioskRefusal> {
        guard var running = run else { return .failure(KioskRefusal("follow", "nothing is running")) }
        defer { run = running }
        return running.follow(timeline, at: now)
    }

    /// Pauses the run on command (see `RunControllable`); nothing to pause in idle.
    public mutating func pause(at now: Moment) -> Result<[Effect], KioskRefusal> {
        guard var running = run else { return .failure(KioskRefusal("pause", "nothing is running")) }
        defer { run = running }
        return running.pause(at: now)
    }

    /// Resumes a paused run on command.
    public mutating func resume(at now: Moment) -> Result<[Effect], KioskRefusal> {
        guard var running = run else { return .failure(KioskRefusal("resume", "nothing is running")) }
        defer { run = running }
        return running.resume(at: now)
    }

    /// Back to idle, abandoning any run in progress (nothing is recorded).
    public mutating func reset(at now: Moment) -> [Effect] {
        run = nil
        return idleOutputs()
    }
}

extension IntervalMode: RunControllable {}
extension WorkoutMode: RunControllable {}
extension ProgramMode: RunControllable {}
