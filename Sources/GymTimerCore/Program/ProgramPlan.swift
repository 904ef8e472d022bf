/// A program as the engine runs it: a sequence of timed intervals with their cues, plus what the
/// buttons and the knob do while it runs and how its score is kept. Pure data, built once at
/// start, so `ProgramRun` needs no case per format and a stored run restarts as it was.
public struct ProgramPlan: Hashable, Sendable, Codable {
    /// One timed interval.
    public struct Interval: Hashable, Sendable, Codable {
        public var seconds: Int
        /// The LEDs lit during it (none in the lead-in).
        public var leds: Set<StatusLED>
        /// Whether the display counts up from 00:00 (for-time) instead of down.
        public var countsUp: Bool
        /// Shown instead of the time during the interval's first second (`r  2`).
        public var banner: DisplayContent?
        /// A rest that dismiss skips (guided workouts).
        public var isRest: Bool
        /// The round it belongs to (1-based; 0 in the lead-in and where rounds are counted by hand).
        public var round: Int

        public init(
            seconds: Int, leds: Set<StatusLED>, countsUp: Bool = false, banner: DisplayContent? = nil,
            isRest: Bool = false, round: Int = 0
        ) {
            self.round = round
            self.seconds = seconds
            self.leds = leds
            self.countsUp = countsUp
            self.banner = banner
            self.isRest = isRest
        }
    }

    /// What a press of start (or dismiss) does while the program runs after its lead-in.
    public enum Press: String, Hashable, Sendable, Codable {
        /// Pause; the next start resumes, dismiss then resets.
        case pause
        /// Count a round (amrap, for-time).
        case countRound
        /// Finish now and record (for-time's "done").
        case finish
        /// Skip the rest in progress (and its cues); pause during anything else.
        case skipRest
    }

    /// What the run leaves behind: the record, its score, and what the display shows after.
    public enum Result: Hashable, Sendable, Codable {
        /// A program of a fixed number of rounds, all done when it ends (intervals, emom): `00:00`.
        case planned(rounds: Int)
        /// A program scored by the rounds counted with start and the knob (amrap): the display
        /// alternates `00:00` and the rounds.
        case counted
        /// A program scored by its time and rounds, or capped (for-time).
        case timed
        /// An interval-mode workout of `sets` sets: `00:00`, no score.
        case intervalWorkout(sets: Int)
        /// A guided session of `preset`: the display cycles total time, exercises and calories.
        case session(WorkoutPreset)
    }

    public var name: String
    /// The first `leadInSeconds` of `intervals` are the lead-in, left out of the record.
    public var leadInSeconds: Int
    /// Never empty; the lead-in, if any, first.
    public var intervals: [Interval]
    public var cues: [SegmentRun.Cue]
    public var start: Press
    public var dismiss: Press
    /// Whether the knob corrects the round count while running.
    public var knobCountsRounds: Bool
    public var result: Result
    /// The call at the natural end of the run (`complete`, or `time-cap` when the end is a cap).
    public var endSound: Sound

    /// Where each interval ends, by active time from the start.
    public var intervalEnds: [Duration] {
        var offset = Duration.zero
        return intervals.map { offset += .seconds($0.seconds); return offset }
    }

    /// How many of the intervals are the lead-in (0 or 1).
    public var leadInCount: Int { leadInSeconds > 0 ? 1 : 0 }
}

extension ProgramPlan {
    /// Beeps before the end of the lead-in, whatever `warning_seconds` says.
    public static let leadInBeeps = 3

    /// The plan of `program`: the format's intervals and calls after the common lead-in.
    /// `warningSeconds` is the kiosk's 3-2-1 beep count before each interval ends (intervals, emom).
    public init(program: Program, warningSeconds: Int) {
        let leadIn = max(0, program.leadInSeconds)
        var builder = Builder(leadInSeconds: leadIn)
        builder.cues.append(.init(at: .seconds(leadIn), sound: .go))
        switch program.format {
        case .intervals(let rounds, let work, let rest):
            builder.addIntervals(rounds: rounds, work: work, rest: rest, warningSeconds: warningSeconds)
        case .emom(let rounds, let every):
            builder.addEMOM(rounds: rounds, every: every, warningSeconds: warningSeconds)
        case .amrap(let time):
            builder.addAMRAP(time: time)
        case .forTime(let cap):
            builder.addForTime(cap: cap)
        }
        self = builder.plan(name: program.name)
    }

    /// Collects intervals and cues by active time; every format starts with the same lead-in.
    struct Builder {
        let leadInSeconds: Int
        var intervals: [Interval] = []
        var cues: [SegmentRun.Cue] = []
        var offset = Duration.zero
        var start = Press.pause, dismiss = Press.pause, knobCountsRounds = false
        var result = Result.counted
        var endSound = Sound.complete

        init(leadInSeconds: Int) {
            self.leadInSeconds = leadInSeconds
            if leadInSeconds > 0 {
                // A 3 s lead-in beeps on the press too: "3, 2, 1, go".
                append(Interval(seconds: leadInSeconds, leds: []), beeps: ProgramPlan.leadInBeeps, beepAtStart: true)
            }
        }

        /// Adds an interval, with `beeps` 100 ms beeps at 3, 2, 1 s before its end (those after its
        /// start, or at it with `beepAtStart`), a sound at its start, and a sound `early` before its
        /// end (after its start).
        mutating func append(
            _ interval: Interval, beeps: Int = 0, beepAtStart: Bool = false, startSound: Sound? = nil,
            endCall: (early: Int, sound: Sound)? = nil
        ) {
            let seconds = max(1, interval.seconds)
            if let startSound { cues.append(.init(at: offset, sound: startSound)) }
            if let endCall, endCall.early > 0 && endCall.early < seconds {
                cues.append(.init(at: offset + .seconds(seconds - endCall.early), sound: endCall.sound))
            }
            let end = offset + .seconds(seconds)
            for left in stride(from: min(beeps, beepAtStart ? seconds : seconds - 1), through: 1, by: -1) {
                cues.append(.init(at: end - .seconds(left), buzzer: .warningBeep))
            }
            var kept = interval
            kept.seconds = seconds
            intervals.append(kept)
            offset = end
        }

        mutating func addIntervals(rounds: Int, work: Int, rest: Int, warningSeconds: Int) {
            let rounds = max(1, rounds)
            for round in 1...rounds {
                let banner = round > 1 ? DisplayContent.tagged("r", round) : nil
                append(Interval(seconds: work, leds: [.high], banner: banner, round: round), beeps: warningSeconds,
                       startSound: round > 1 && rest > 0 ? .work : nil)
                if round < rounds && rest > 0 {
                    append(Interval(seconds: rest, leds: [.low], round: round), beeps: warningSeconds, startSound: .rest)
                }
            }
            result = .planned(rounds: rounds)
        }

        mutating func addEMOM(rounds: Int, every: Int, warningSeconds: Int) {
            let rounds = max(1, rounds)
            for round in 1...rounds {
                let banner = round > 1 ? DisplayContent.tagged("r", round) : nil
                append(Interval(seconds: every, leds: [.high], banner: banner, round: round), beeps: warningSeconds,
                       startSound: round > 1 ? .round(round) : nil)
            }
            result = .planned(rounds: rounds)
        }

        mutating func addAMRAP(time: Int) {
            let start = offset, time = max(1, time)
            append(Interval(seconds: time, leds: [.high]))
            cues.append(.init(at: start + .seconds(time) / 2, sound: .halfway))
            if time > 120 { cues.append(.init(at: start + .seconds(time - 60), sound: .lastMinute)) }
            self.start = .countRound
            knobCountsRounds = true
            result = .counted
        }

        mutating func addForTime(cap: Int) {
            let limit = cap > 0 ? cap : 99 * 60 + 59
            append(Interval(seconds: limit, leds: [.high], countsUp: true))
            start = .countRound
            dismiss = .finish
            knobCountsRounds = true
            result = .timed
            endSound = .timeCap
        }

        func plan(name: String) -> ProgramPlan {
            ProgramPlan(
                name: name, leadInSeconds: leadInSeconds, intervals: intervals, cues: cues, start: start,
                dismiss: dismiss, knobCountsRounds: knobCountsRounds, result: result, endSound: endSound)
        }
    }
}
