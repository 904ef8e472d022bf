import Testing
@testable import GymTimerCore

/// Thousands of seeded random programs, each driven by random presses, turns, holds and pauses at
/// random instants, checking what programs.md says must always hold.
@Suite struct ProgramPropertyTests {
    static let inputs: [ControlEvent] = [
        .pressed(.start), .pressed(.start), .released(.start), .pressed(.dismiss), .released(.dismiss),
        .turned(0), .turned(0), .turned(0), .held(.dismiss),
    ]

    static func randomProgram(_ rng: inout SplitMix64) -> Program {
        let leadIn = Int(rng.next() % 6)
        let format: Program.Format
        switch rng.next() % 4 {
        case 0: format = .intervals(rounds: 1 + Int(rng.next() % 4), workSeconds: 1 + Int(rng.next() % 8), restSeconds: Int(rng.next() % 5))
        case 1: format = .emom(rounds: 1 + Int(rng.next() % 4), everySeconds: 1 + Int(rng.next() % 10))
        case 2: format = .amrap(timeSeconds: 1 + Int(rng.next() % 150))
        default: format = .forTime(capSeconds: Int(rng.next() % 40))
        }
        return Program(name: "p", label: "P", leadInSeconds: leadIn, format: format)
    }

    /// The seconds a time display shows; nil for a banner or a counted round.
    static func seconds(_ content: DisplayContent) -> Int? {
        guard content.colon, let mm = Int(content.text.prefix(2)), let ss = Int(content.text.suffix(2)) else { return nil }
        return mm * 60 + ss
    }

    @Test func programInvariantsHoldForThousandsOfRandomSequences() {
        var finished = 0
        for seed in 0..<2000 as Range<UInt64> { finished += check(seed: seed) }
        #expect(finished > 300, "enough programs reach their end to mean something (\(finished))")
    }

    /// Returns how many programs finished.
    func check(seed: UInt64) -> Int {
        var rng = SplitMix64(seed: seed)
        let program = Self.randomProgram(&rng)
        var mode = ProgramMode(settings: ProgramSettings(programs: [program]), warningSeconds: Int(rng.next() % 5))
        var now = Moment.origin
        var shown: (segment: Int, seconds: Int)?
        var finished = 0, records = 0, dropped = 0
        for _ in 0..<400 {
            // Mostly short gaps, with the odd long one (a pause, a walk-away).
            let gap: UInt64 = rng.next() % 10 == 0 ? 60_000 : 2_500
            let event = ModePropertyTests.nextEvent(mode, &rng, now: &now, maxGapMs: gap, inputs: Self.inputs)
            let before = mode.run
            let effects = mode.handle(event, at: now)
            let after = mode.run
            let recorded = effects.compactMap { if case .record(let record) = $0 { record } else { nil } }
            GymTimerCoreTests.check((after?.rounds ?? 0) >= 0, "the round count is never negative (seed \(seed))")

            if case .running(let b)? = before?.phase, case .running(let a)? = after?.phase {
                if a.segment != b.segment {
                    GymTimerCoreTests.check(a.segment > b.segment, "intervals only move forward (seed \(seed))")
                    GymTimerCoreTests.check(
                        a.elapsed(at: now) >= mode.plan().intervalEnds[b.segment], "no interval ends early (seed \(seed))")
                    shown = nil
                }
                if !a.isPaused && !b.isPaused {
                    for case .display(let content) in effects {
                        // A banner or a counted round hides the time for a second: start afresh.
                        guard let seconds = Self.seconds(content) else { shown = nil; continue }
                        if let last = shown, last.segment == a.segment {
                            let countsUp = mode.plan().intervals[a.segment].countsUp
                            let step = countsUp ? seconds - last.seconds : last.seconds - seconds
                            GymTimerCoreTests.check(step >= 0, "a countdown never goes up, a count-up never down (seed \(seed))")
                            GymTimerCoreTests.check(step <= 1, "the time shown never jumps (seed \(seed))")
                        }
                        shown = (a.segment, seconds)
                    }
                }
            } else {
                shown = nil
            }

            let finishing = before.map { !$0.isFinished } == true && after?.isFinished == true
            let confirming = before?.pendingRecord != nil && after?.pendingRecord == nil
            if finishing { finished += 1 }
            if confirming && event == .held(.dismiss) {
                dropped += 1
                GymTimerCoreTests.check(recorded.isEmpty, "holding dismiss after done abandons it (seed \(seed))")
            } else if (finishing && after?.pendingRecord == nil) || confirming {
                GymTimerCoreTests.check(recorded.count == 1, "one record per finished program (seed \(seed))")
            } else {
                GymTimerCoreTests.check(recorded.isEmpty, "records only when a program finishes (seed \(seed))")
            }
            if let b = before, let record = recorded.first {
                let expected = b.plannedRounds > 0 ? b.plannedRounds : b.rounds
                GymTimerCoreTests.check(record.score?.rounds == expected, "the score is the rounds counted (seed \(seed))")
                GymTimerCoreTests.check(record.sets == expected)
                GymTimerCoreTests.check(record.kind == .program && record.preset == "p")
                GymTimerCoreTests.check(record.duration >= .zero, "the lead-in is left out, never more (seed \(seed))")
            }
            records += recorded.count
        }
        let waiting = mode.run?.pendingRecord != nil ? 1 : 0
        GymTimerCoreTests.check(
            records + dropped + waiting == finished, "exactly one record per finished program not abandoned (seed \(seed))")
        return finished
    }
}
