/// Who trains at the station (`StationAthlete`): a tap of their card, or the coach's class list,
/// puts an athlete on it; their workouts are recorded as theirs (`WorkoutRecord.athlete`) until
/// they tap out (the same card again), another card is tapped, or the station has been idle and
/// untouched for `AthleteSettings.idleTimeout`. Nobody on it: a guest, as before.
///
/// A tap shows the athlete's short name for `Kiosk.tapNotice` over whatever the mode shows (the
/// mode runs on underneath) with a short chirp while idle; a tap out shows `out`. An athlete
/// leaving closes the rest workout under way (its sets are theirs); a run under way (an interval,
/// a workout, a program) carries on and is recorded for whoever is on the station when it ends,
/// so a member who taps in late for a class gets the class's result.
extension Kiosk {
    /// How long the display says who tapped (or `out`).
    public static let tapNotice: Duration = .seconds(2)
    /// The same card tapped again within this of tapping in only shows the name again: a card
    /// presented twice, or read twice, does not tap its athlete straight out again.
    public static let tapRepeatWindow: Duration = .seconds(5)
    /// What the display says when an athlete taps out.
    static let tapOutText = "out"

    /// A card held to the reader.
    mutating func tapped(_ tap: CardTap, at now: Moment) -> [Effect] {
        if let present = athlete, present.card == tap.card {
            if now - present.since < Self.tapRepeatWindow {
                athlete?.tap = tap.completed(from: present.tap)
                return notice(tap.displayName, at: now)
            }
            return leave(at: now) + notice(Self.tapOutText, at: now)
        }
        return arrive(tap, at: now) + notice(tap.displayName, at: now)
    }

    /// The coach's class list puts `tap`'s athlete on the station (nil: nobody, a guest), in
    /// the division it says (`CardTap.division`; none: a fresh athlete starts Rx, the athlete
    /// already on the station keeps theirs). What the gym told the station of the card stays
    /// when the command says less (the same athlete again, named by their card alone).
    mutating func assignAthlete(_ tap: CardTap?, at now: Moment) -> [Effect] {
        guard let tap else { return athlete == nil ? [] : leave(at: now) }
        if let present = athlete, present.card == tap.card {
            athlete?.tap = tap.completed(from: present.tap)
            let renamed = renameNotice(from: present.tap.displayName, at: now)
            guard let division = tap.division, division != self.division else { return renamed }
            return renamed + setDivision(division, at: now)
        }
        let arrived = arrive(tap, at: now)
        if let division = tap.division { self.division = division }
        return arrived + notice(tap.displayName, at: now)
    }

    /// The gym's answer to a tap came while its notice is up: the notice shows the name it
    /// brought (the card's last digits until then), for the rest of its time, with no chirp.
    private mutating func renameNotice(from shown: String, at now: Moment) -> [Effect] {
        guard let message, message.text == shown, now < message.until, let named = athlete?.tap.displayName, named != shown
        else { return [] }
        self.message = FloorMessage(text: named, shownAt: message.shownAt, until: message.until)
        return overlaid([], at: now)
    }

    /// `tap`'s athlete takes the station, in Rx: whoever was on it leaves first.
    private mutating func arrive(_ tap: CardTap, at now: Moment) -> [Effect] {
        let handedOver = leave(at: now)
        athlete = StationAthlete(tap: tap, since: now)
        return handedOver
    }

    /// The athlete on the station (or a guest) leaves: the rest workout under way is closed and
    /// recorded for them; whoever comes next starts Rx.
    private mutating func leave(at now: Moment) -> [Effect] {
        var records: [Effect] = []
        if case .rest(var rest) = mode, let record = rest.handOver(at: now) {
            mode = .rest(rest)
            records = attributed([.record(record)], to: athlete?.card, division: division)
        }
        athlete = nil
        division = .rx
        return records
    }

    /// `text` over the display for `tapNotice`, and the chirp while idle (never over an alarm or a
    /// countdown's beeps).
    private mutating func notice(_ text: String, at now: Moment) -> [Effect] {
        message = FloorMessage(text: text, shownAt: now, until: now + Self.tapNotice)
        return (isIdle ? [.buzzer(.warningBeep)] : []) + overlaid([], at: now)
    }

    /// When the athlete on the station leaves for want of use, if nothing happens before.
    func athleteDeadline(after now: Moment) -> Moment? {
        guard let athlete, isIdle || showsResult else { return nil }
        return max(athlete.usedAt + settings.athletes.idleTimeout, now)
    }

    /// After handling `event` (whose records are already `attributed`): marks a use of the
    /// station (a hand, a command, a tap, a run under way; `wasIdle`: before the event), and lets
    /// the athlete go when the station has been idle and untouched too long.
    mutating func attributing(_ marked: [Effect], after event: ControlEvent, wasIdle: Bool, at now: Moment) -> [Effect] {
        guard let present = athlete else { return marked }
        if event.isUse || !wasIdle || !(isIdle || showsResult) {
            athlete?.usedAt = now
            return marked
        }
        guard now >= present.usedAt + settings.athletes.idleTimeout else { return marked }
        return marked + leave(at: now)
    }

    /// `effects` with every record that names nobody given to `card` (nil: they stay a guest's),
    /// the athlete on the station when the event came (a tap that changes who is on it has
    /// already closed the workout of whoever was, guest or athlete), and every program result
    /// that says no division given `division`, the station's then.
    func attributed(_ effects: [Effect], to card: CardID?, division: Division) -> [Effect] {
        effects.map { effect in
            guard case .record(var record) = effect else { return effect }
            if record.athlete == nil { record.athlete = card }
            if record.kind == .program, record.division == nil { record.division = division }
            return .record(record)
        }
    }

    /// Who was on the station when it was stored: a restart keeps them, when their moments lie
    /// near the save (a hand-edited journal's could make the time-out's arithmetic overflow).
    mutating func keepAthlete(of stored: KioskProgress, _ check: PlausibilityCheck) {
        division = stored.division ?? .rx
        guard let kept = stored.athlete, check.near(kept.since), check.near(kept.usedAt) else {
            athlete = nil
            return
        }
        athlete = kept
    }
}
