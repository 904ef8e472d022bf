/// Rx or Scaled (`Kiosk.division`), and the personal record said at the wall.
///
/// The division is the station's, for the program results it records: a fresh athlete or a
/// guest starts Rx (`Kiosk+Athlete` resets it when someone arrives or leaves), the coach's class
/// list may say another (`CardTap.division`), and at the wall it is chosen with the hands where
/// they have no other job in a program:
/// * idle: a press of **dismiss** switches Rx ⇄ Scaled (start runs, the knob picks the program);
/// * while the program runs and the knob counts no round (the lead-in, intervals and emom, a
///   paused run): the **knob** clockwise says Scaled, counter-clockwise Rx (a turn of several
///   detents lands on one side, never flickers between them).
/// The display says `Sc` or `rH` (the 7-segment Rx) for `divisionNotice` over the mode's own;
/// nothing else changes. A result takes the division the station had when it was recorded.
///
/// A program result of the athlete on the station whose previous best of that program in that
/// division is known (`CardTap.bests`, published by the gym) and beaten (`ProgramScore.beats`)
/// is a personal record: `Pr` over the result for `personalRecordNotice` and the
/// `personal-record` cue (in place of `complete`). The best kept is updated with every result,
/// so a second, better one says `Pr` again. With no best known (offline, a new athlete, a guest)
/// nothing extra is said; the gym's history keeps the records right either way.
extension Kiosk {
    /// How long the display says the division chosen.
    public static let divisionNotice: Duration = .milliseconds(1500)
    /// How long `Pr` shows over a result that beat the athlete's best.
    public static let personalRecordNotice: Duration = .seconds(3)
    /// What the display says over a personal record.
    public static let personalRecordText = "Pr"

    /// The division the wall's hands choose with `event`, if `event` is such a choice (see the
    /// rules above), with what shows; nil for any other event, which the mode handles.
    mutating func chooseDivision(by event: ControlEvent, at now: Moment) -> [Effect]? {
        guard case .program(let program) = mode else { return nil }
        switch event {
        case .pressed(.dismiss) where program.isIdle:
            return setDivision(division.toggled, at: now)
        case .turned(let detents) where detents != 0:
            guard let run = program.run, !run.isFinished, !run.countsRound(event) else { return nil }
            // Anything already due first, so the knob never reorders the run's cues.
            var effects: [Effect] = []
            if let due = nextDeadline(after: now), due <= now { effects = dispatch(.deadline, at: now) }
            return effects + setDivision(detents > 0 ? .scaled : .rx, at: now)
        default:
            return nil
        }
    }

    /// Records from now on are `division`'s; the display says so for a moment.
    mutating func setDivision(_ chosen: Division, at now: Moment) -> [Effect] {
        division = chosen
        message = FloorMessage(text: chosen.wallText, shownAt: now, until: now + Self.divisionNotice)
        return overlaid([], at: now)
    }

    /// `effects` after their records are attributed: each program result of the athlete on
    /// the station goes into their known bests, and one that beat a known best adds `Pr` on the
    /// display and its cue (`aloud`; a result caught up after a restart only updates the bests).
    mutating func celebrating(_ effects: [Effect], at now: Moment, aloud: Bool) -> [Effect] {
        var beaten = false
        for case .record(let record) in effects {
            guard record.kind == .program, let card = record.athlete, card == athlete?.card,
                  var bests = athlete?.tap.bests, let program = record.preset, let score = record.score else { continue }
            if bests.record(score, of: program, in: record.division ?? .rx) { beaten = true }
            athlete?.tap.bests = bests
        }
        guard beaten, aloud else { return effects }
        message = FloorMessage(text: Self.personalRecordText, shownAt: now, until: now + Self.personalRecordNotice)
        // The personal-record cue instead of the finish's `complete`, never after it.
        var cued = effects.map { effect in effect == .sound(.complete) ? .sound(.personalRecord) : effect }
        if !cued.contains(.sound(.personalRecord)) { cued.append(.sound(.personalRecord)) }
        return overlaid(cued, at: now)
    }
}
