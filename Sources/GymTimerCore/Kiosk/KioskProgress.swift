/// What a restart needs to carry a running kiosk on: the mode, which plan it runs, how far it
/// got and its deadlines. Progress, not the config: the config the kiosk restarts with supplies
/// the rest and `KioskRestore` checks the two belong together, so the journal stays a few
/// hundred bytes whatever the config holds (thousands of programs, long names).
///
/// Its JSON is read by later releases: every field is optional or has a default, so a field a
/// later release adds reads as absent here and a field this release leaves out reads as absent
/// there; unknown fields are ignored. A field that no longer decodes drops what it describes,
/// never the journal (see `StoredKiosk`).
public struct KioskProgress: Hashable, Sendable, Codable {
    /// The mode in progress (the one the menu returns to, while the menu is open).
    public var mode: Mode
    /// The open mode menu: the entry shown and when it was last touched.
    public var menuSelected: Int?
    public var menuTouchedAt: Moment?
    /// The idle mode as it was before the latest press of start (see `Kiosk.beforeStartPress`).
    public var beforeStartPress: Mode?
    public var startPressedAt: Moment?
    /// Since when a coach has locked the wall's buttons (`Kiosk.lockedSince`): a restart keeps
    /// the lock, so pulling the plug does not unlock a class timer.
    public var lockedSince: Moment?
    /// The display's brightness a coach set (`Kiosk.brightness`), kept across restarts.
    public var brightness: Int?
    /// The sleep window a coach set (`Kiosk.sleepWindow`), kept across restarts.
    public var sleepWindow: SleepWindow?
    /// Who was on the station (`Kiosk.athlete`): a power cut between a tap and the end of the
    /// workout still records it as theirs.
    public var athlete: StationAthlete?
    /// The station's division (`Kiosk.division`) when it is Scaled; absent: Rx.
    public var division: Division?

    /// One mode's progress.
    public struct Mode: Hashable, Sendable, Codable {
        public enum Kind: String, Hashable, Sendable, Codable { case rest, interval, workout, program }

        public var kind: Kind
        /// Rest: the settings the workout ran under, so a changed config is noticed (nil: unknown).
        public var restSettings: RestSettings?
        /// Rest: the knob's duration; interval: the knob's phase length.
        public var seconds: Int?
        /// Rest: sets counted, when the workout began, the countdown's deadline and the warning
        /// beeps still to come, or since when the alarm sounds.
        public var sets: Int?
        public var workoutStartedAt: Moment?
        public var restDeadline: Moment?
        /// Rest: what is left of a paused rest (a coach's `pause`).
        public var restRemaining: Duration?
        public var beepsLeft: Int?
        public var alarmSince: Moment?
        /// Workout and program: the index of the preset or program chosen.
        public var selected: Int?
        /// The run on the program engine, if one is under way.
        public var run: Run?
        /// Program: a class's program the config does not have (`ProgramMode.classProgram`),
        /// so a station restarted during such a class carries on with it.
        public var classProgram: Program?

        public init(kind: Kind) { self.kind = kind }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            kind = try container.decode(Kind.self, forKey: .kind)
            // A later release's rest settings that do not decode here are unknown, not fatal.
            restSettings = try? container.decodeIfPresent(RestSettings.self, forKey: .restSettings)
            seconds = try container.decodeIfPresent(Int.self, forKey: .seconds)
            sets = try container.decodeIfPresent(Int.self, forKey: .sets)
            workoutStartedAt = try container.decodeIfPresent(Moment.self, forKey: .workoutStartedAt)
            restDeadline = try container.decodeIfPresent(Moment.self, forKey: .restDeadline)
            restRemaining = try container.decodeIfPresent(Duration.self, forKey: .restRemaining)
            beepsLeft = try container.decodeIfPresent(Int.self, forKey: .beepsLeft)
            alarmSince = try container.decodeIfPresent(Moment.self, forKey: .alarmSince)
            selected = try container.decodeIfPresent(Int.self, forKey: .selected)
            run = try container.decodeIfPresent(Run.self, forKey: .run)
            // A definition another release wrote that does not decode here drops the class's program (and its run).
            classProgram = try? container.decodeIfPresent(Program.self, forKey: .classProgram)
        }
    }

    /// A run of a plan: which plan (by digest, see `ProgramPlan.digest`), where in it, and its moments.
    public struct Run: Hashable, Sendable, Codable {
        public var planDigest: String
        public var startedAt: Moment
        /// Running: the segment, the next cue, and the segment's end (running) or what is left of it (paused).
        public var segment: Int?
        public var nextCue: Int?
        public var end: Moment?
        public var remaining: Duration?
        /// Finished: since when, the record's duration, and the result pages the display cycles.
        public var finishedAt: Moment?
        public var duration: Duration?
        public var pages: [DisplayContent]?
        public var pageLength: Duration?
        public var rounds: Int?
        public var flashUntil: Moment?
        public var workStartedAt: Moment?
        public var pendingRecord: WorkoutRecord?
        public var score: ProgramScore?

        public init(planDigest: String, startedAt: Moment) {
            self.planDigest = planDigest
            self.startedAt = startedAt
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            planDigest = try container.decode(String.self, forKey: .planDigest)
            startedAt = try container.decode(Moment.self, forKey: .startedAt)
            segment = try container.decodeIfPresent(Int.self, forKey: .segment)
            nextCue = try container.decodeIfPresent(Int.self, forKey: .nextCue)
            end = try container.decodeIfPresent(Moment.self, forKey: .end)
            remaining = try container.decodeIfPresent(Duration.self, forKey: .remaining)
            finishedAt = try container.decodeIfPresent(Moment.self, forKey: .finishedAt)
            duration = try container.decodeIfPresent(Duration.self, forKey: .duration)
            // Result pages another release's display cannot be read: the finished run is dropped.
            pages = try? container.decodeIfPresent([DisplayContent].self, forKey: .pages)
            pageLength = try container.decodeIfPresent(Duration.self, forKey: .pageLength)
            rounds = try container.decodeIfPresent(Int.self, forKey: .rounds)
            flashUntil = try container.decodeIfPresent(Moment.self, forKey: .flashUntil)
            workStartedAt = try container.decodeIfPresent(Moment.self, forKey: .workStartedAt)
            pendingRecord = try? container.decodeIfPresent(WorkoutRecord.self, forKey: .pendingRecord)
            score = try? container.decodeIfPresent(ProgramScore.self, forKey: .score)
        }
    }

    public init(mode: Mode) { self.mode = mode }

    /// The progress of `kiosk`. Reads stored fields only (no arithmetic), so it is safe on a
    /// kiosk decoded from an old journal before it has been checked.
    public init(_ kiosk: Kiosk) {
        var current = kiosk.mode
        while case .menu(let menu, let previous) = current {
            menuSelected = menu.selected
            menuTouchedAt = menu.touchedAt
            current = previous
        }
        mode = Mode(current)
        if let before = kiosk.beforeStartPress { beforeStartPress = Mode(before) }
        startPressedAt = kiosk.startPressedAt
        lockedSince = kiosk.lockedSince
        brightness = kiosk.brightness
        sleepWindow = kiosk.sleepWindow
        athlete = kiosk.athlete
        division = kiosk.division == .rx ? nil : kiosk.division
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mode = try container.decode(Mode.self, forKey: .mode)
        menuSelected = try container.decodeIfPresent(Int.self, forKey: .menuSelected)
        menuTouchedAt = try container.decodeIfPresent(Moment.self, forKey: .menuTouchedAt)
        beforeStartPress = try? container.decodeIfPresent(Mode.self, forKey: .beforeStartPress)
        startPressedAt = try container.decodeIfPresent(Moment.self, forKey: .startPressedAt)
        lockedSince = try? container.decodeIfPresent(Moment.self, forKey: .lockedSince)
        brightness = (try? container.decodeIfPresent(Int.self, forKey: .brightness)).flatMap { (0...100).contains($0) ? $0 : nil }
        sleepWindow = (try? container.decodeIfPresent(SleepWindow.self, forKey: .sleepWindow)) ?? nil
        athlete = (try? container.decodeIfPresent(StationAthlete.self, forKey: .athlete)) ?? nil
        division = (try? container.decodeIfPresent(Division.self, forKey: .division)) ?? nil
    }

    /// What is under way at the station, in words, or nil when it is idle: a rest counting down,
    /// paused or sounding its alarm, a workout's sets being counted, or a run of a plan that has
    /// not finished. What a package upgrade must not interrupt (`UpgradeAgent`); a finished
    /// run's result pages and the open menu are not under way (a restart shows them again).
    public var underWay: String? {
        if mode.restDeadline != nil { return "a rest is counting down" }
        if mode.restRemaining != nil { return "a rest is paused" }
        if mode.alarmSince != nil { return "the rest's alarm sounds" }
        if (mode.sets ?? 0) > 0 || mode.workoutStartedAt != nil { return "a workout's sets are being counted" }
        if let run = mode.run, run.finishedAt == nil { return "a\(mode.kind == .interval ? "n" : "") \(mode.kind.rawValue) is running" }
        return nil
    }

    /// This progress for a new timeline (the simulator's next run after a clean end): itself
    /// when it is idle with no workout under way, the press of start forgotten; nil otherwise.
    public var idleCarriedOver: KioskProgress? {
        guard menuSelected == nil, mode.run == nil, mode.restDeadline == nil, mode.restRemaining == nil, mode.alarmSince == nil,
              (mode.sets ?? 0) == 0, mode.workoutStartedAt == nil else { return nil }
        var idle = KioskProgress(mode: mode)
        idle.lockedSince = lockedSince
        idle.brightness = brightness
        idle.sleepWindow = sleepWindow
        return idle
    }
}

extension KioskProgress.Mode {
    /// The progress of `mode` (a menu reads as the mode it returns to).
    public init(_ mode: Kiosk.Mode) {
        switch mode {
        case .rest(let rest):
            self.init(kind: .rest)
            restSettings = rest.settings
            seconds = rest.durationSeconds
            sets = rest.sets
            workoutStartedAt = rest.workoutStartedAt
            switch rest.phase {
            case .idle: break
            case .resting(let countdown, let beeps):
                restDeadline = countdown.deadline
                beepsLeft = beeps
            case .alarm(let since): alarmSince = since
            case .paused(let remaining, let beeps):
                restRemaining = remaining
                beepsLeft = beeps
            }
        case .interval(let interval):
            self.init(kind: .interval)
            seconds = interval.phaseSeconds
            run = interval.run.map(KioskProgress.Run.init)
        case .workout(let workout):
            self.init(kind: .workout)
            selected = workout.presetIndex
            run = workout.run.map(KioskProgress.Run.init)
        case .program(let program):
            self.init(kind: .program)
            selected = program.selected
            classProgram = program.classProgram
            run = program.run.map(KioskProgress.Run.init)
        case .menu(_, let previous):
            self.init(previous)
        }
    }
}

extension KioskProgress.Run {
    /// The progress of `run`.
    public init(_ run: ProgramRun) {
        switch run.phase {
        case .running(let segments):
            self.init(planDigest: run.plan.digest, startedAt: segments.startedAt)
            segment = segments.segment
            nextCue = segments.nextCue
            switch segments.timing {
            case .running(let end): self.end = end
            case .paused(let remaining): self.remaining = remaining
            }
        case .finished(let since, let duration, let pages, let pageLength):
            self.init(planDigest: run.plan.digest, startedAt: run.workStartedAt ?? since)
            finishedAt = since
            self.duration = duration
            self.pages = pages
            self.pageLength = pageLength
        }
        rounds = run.rounds
        flashUntil = run.flashUntil
        workStartedAt = run.workStartedAt
        pendingRecord = run.pendingRecord
        score = run.score
    }
}

extension ProgramPlan {
    /// A stable fingerprint of the plan (FNV-1a, 64 bits, as 16 hex digits): its name, lead-in,
    /// intervals, cues and presses. The same in every process and release that builds the same
    /// plan, so a stored run resumes only on the plan it started with. Reads fields only (no
    /// arithmetic), so it is safe on a plan decoded from an unchecked file.
    public var digest: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        func mix(_ value: Int64) { withUnsafeBytes(of: value.littleEndian) { mix($0) } }
        func mix(_ text: String) {
            mix(Int64(text.utf8.count))
            mix(text.utf8)
        }
        // Its 16 bytes as they are: `components` traps on a duration out of its range.
        func mix(_ duration: Duration) { withUnsafeBytes(of: duration) { mix($0) } }
        mix(name)
        mix(Int64(leadInSeconds))
        mix(Int64(intervals.count))
        for interval in intervals {
            mix(Int64(interval.seconds))
            mix([interval.countsUp ? 1 : 0, interval.isRest ? 1 : 0])
            mix(Int64(interval.round))
        }
        mix(Int64(cues.count))
        for cue in cues {
            mix(cue.at)
            mix(cue.sound?.name ?? "")
            mix([cue.buzzer == nil ? 0 : 1])
        }
        mix(start.rawValue)
        mix(dismiss.rawValue)
        mix([knobCountsRounds ? 1 : 0])
        mix(endSound.name)
        return String(hash, radix: 16)
    }
}

extension ProgramRun {
    /// The run `stored` describes, on `plan` (the config's, with the stored digest); nil when
    /// it lacks what its phase needs or its start is out of `check`'s range. The rest of its
    /// numbers are checked by `Kiosk.isPlausible` before anything computes with them.
    init?(restoring stored: KioskProgress.Run, on plan: ProgramPlan, _ check: PlausibilityCheck) {
        guard check.near(stored.startedAt) else { return nil }
        self.init(plan: plan, at: stored.startedAt)
        if let since = stored.finishedAt {
            guard let duration = stored.duration, let pages = stored.pages, let pageLength = stored.pageLength else { return nil }
            phase = .finished(since: since, duration: duration, pages: pages, pageLength: pageLength)
        } else {
            guard case .running(var segments) = phase, let segment = stored.segment, let nextCue = stored.nextCue else { return nil }
            segments.segment = segment
            segments.nextCue = nextCue
            if let end = stored.end {
                segments.timing = .running(end: end)
            } else if let remaining = stored.remaining {
                segments.timing = .paused(remaining: remaining)
            } else {
                return nil
            }
            phase = .running(segments)
        }
        rounds = stored.rounds ?? 0
        flashUntil = stored.flashUntil
        workStartedAt = stored.workStartedAt
        pendingRecord = stored.pendingRecord
        score = stored.score
    }
}

extension KioskProgress {
    /// The same progress on a timeline where every moment lies `shift` later (a restart whose
    /// wall clock moved, see the runtime's `ClockTrust`). A moment pushed past the timeline's
    /// range saturates, and the plausibility check refuses it.
    public func shifted(by shift: Duration) -> KioskProgress {
        func move(_ moment: Moment?) -> Moment? { moment.map { $0.saturatingAdvanced(by: shift) } }
        func move(_ mode: Mode) -> Mode {
            var mode = mode
            mode.workoutStartedAt = move(mode.workoutStartedAt)
            mode.restDeadline = move(mode.restDeadline)
            mode.alarmSince = move(mode.alarmSince)
            if var run = mode.run {
                run.startedAt = run.startedAt.saturatingAdvanced(by: shift)
                run.end = move(run.end)
                run.finishedAt = move(run.finishedAt)
                run.flashUntil = move(run.flashUntil)
                run.workStartedAt = move(run.workStartedAt)
                mode.run = run
            }
            return mode
        }
        var moved = self
        moved.mode = move(mode)
        moved.beforeStartPress = beforeStartPress.map(move)
        moved.menuTouchedAt = move(menuTouchedAt)
        moved.startPressedAt = move(startPressedAt)
        return moved
    }

    /// This progress with a running run paused where it was at `savedAt`: what a restart shows
    /// when it cannot know how much time passed (start resumes it).
    public func holdingRun(at savedAt: Moment) -> KioskProgress {
        guard var run = mode.run, run.finishedAt == nil, let end = run.end else { return self }
        let (left, overflow) = end.nanoseconds.subtractingReportingOverflow(savedAt.nanoseconds)
        guard !overflow else { return self }
        run.end = nil
        run.remaining = .nanoseconds(max(0, left))
        var held = self
        held.mode.run = run
        return held
    }
}

extension Moment {
    /// The moment `duration` later, held at the timeline's ends instead of overflowing.
    public func saturatingAdvanced(by duration: Duration) -> Moment {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(duration.nanoseconds)
        guard overflow else { return Moment(nanoseconds: sum) }
        return Moment(nanoseconds: duration.nanoseconds > 0 ? .max : .min)
    }
}
