import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import Testing

/// The retained `state` from the pure core, on a timeline of its own (no clock, no broker).
@Suite struct FleetStateReportTests {
    /// Moments as Unix times: the timeline's origin is Unix time 1 767 225 600.
    func unix(_ moment: Moment) -> Double { 1_767_225_600 + Double(moment.nanoseconds) / 1e9 }

    func object(_ text: String) -> [String: JSONValue] {
        if case .object(let object)? = JSONValue.parse(Array(text.utf8)) { return object }
        return [:]
    }

    @Test func aRestCarriesItsDeadlineAndTheStateChangesOnlyWithThePhase() {
        var kiosk = Kiosk(settings: KioskSettings())
        _ = kiosk.start(at: .origin)
        let idle = FleetStateReport(kiosk)
        #expect(idle.mode == "rest" && idle.phase == "idle" && idle.deadline == nil && idle.restSeconds == 90)
        let pressedAt = Moment(.seconds(10))
        _ = kiosk.handle(.pressed(.start), at: pressedAt)
        _ = kiosk.handle(.released(.start), at: pressedAt + .milliseconds(80))
        let resting = FleetStateReport(kiosk)
        #expect(resting.phase == "resting" && resting.deadline == pressedAt + .seconds(90))
        // A second later the display shows one second less; the report is the same.
        _ = kiosk.handle(.deadline, at: pressedAt + .seconds(1))
        #expect(FleetStateReport(kiosk) == resting)
        let json = object(resting.json(display: "0130", at: 1_767_225_610, unix: unix))
        for key in ["mode", "phase", "program", "display", "deadline", "remaining", "round", "sets", "t"] {
            #expect(json[key] != nil, "state lacks \(key)")
        }
        #expect(json["deadline"]?.number == 1_767_225_700)
        #expect(json["display"]?.string == "0130")
        #expect(json["program"] == .null)
    }

    @Test func theStateNamesNobodyEvenWithAnAthleteOnTheStation() {
        var kiosk = Kiosk(settings: KioskSettings())
        _ = kiosk.start(at: .origin)
        #expect(object(FleetStateReport(kiosk).json(display: "0130", at: 1_767_225_601, unix: unix))["athlete"] == nil)
        _ = kiosk.handle(.tapped(CardTap(card: CardID(hex: "04A1B2C3")!, shortName: "AnnA")), at: Moment(.seconds(1)))
        let tapped = FleetStateReport(kiosk)
        #expect(tapped.athlete == CardID(hex: "04A1B2C3"), "the report knows her (the station publishes her on P/athlete)")
        let json = tapped.json(display: "AnnA", at: 1_767_225_601, unix: unix)
        #expect(object(json)["athlete"] == nil && !json.contains("04A1B2C3"), "\(json)")
        _ = kiosk.handle(.command(.setAthlete(nil)), at: Moment(.seconds(2)))
        #expect(FleetStateReport(kiosk) != tapped, "the change is published")
        #expect(object(FleetStateReport(kiosk).json(display: "0130", at: 1_767_225_602, unix: unix))["athlete"] == nil)
    }

    @Test func anIntervalCarriesItsSetThePhasesDeadlineAndWhatIsLeftWhenPaused() {
        var settings = KioskSettings(startMode: .interval)
        settings.interval = IntervalSettings(phaseSeconds: 30, sets: 8)
        var kiosk = Kiosk(settings: settings)
        _ = kiosk.start(at: .origin)
        #expect(FleetStateReport(kiosk).phase == "idle" && FleetStateReport(kiosk).round == nil)
        let start = Moment(.seconds(10))
        _ = kiosk.handle(.pressed(.start), at: start)
        let first = FleetStateReport(kiosk)
        #expect(first.phase == "running" && first.round == 1 && first.deadline == start + .seconds(30))
        // Into the third phase (set 2's first): a new deadline, a new report.
        for second in 1...65 { _ = kiosk.handle(.deadline, at: start + .seconds(second)) }
        let third = FleetStateReport(kiosk)
        #expect(third.round == 2 && third.deadline == start + .seconds(90))
        // Paused 5 s into the phase: no deadline, 25 s left.
        _ = kiosk.handle(.pressed(.dismiss), at: start + .seconds(65))
        let paused = FleetStateReport(kiosk)
        #expect(paused.phase == "paused" && paused.deadline == nil && paused.remaining == .seconds(25))
        let json = object(paused.json(display: "0025", at: 1_767_225_675, unix: unix))
        #expect(json["remaining"]?.number == 25 && json["round"]?.number == 2 && json["deadline"] == .null)
    }

    /// The time left as a reader works it out from the retained state alone: `deadline - now`
    /// while running, `remaining` while paused (whole seconds up, as the display counts).
    func readerSeconds(_ json: [String: JSONValue], at unixTime: Double) -> Int? {
        if let deadline = json["deadline"]?.number { return Int((deadline - unixTime - 1e-9).rounded(.up)) }
        if let remaining = json["remaining"]?.number { return Int((remaining - 1e-9).rounded(.up)) }
        return nil
    }

    /// Runs `kiosk` from `start` for `seconds`, a wake-up every quarter second (paused between
    /// `pause` and `resume`, if given), and checks at each that the last *published* state
    /// (published only when it changed, as the station does) gives any reader the digits the
    /// display shows whenever it shows a time. Returns how many moments were checked and how
    /// many states were published.
    func checkLive(_ kiosk: inout Kiosk, from start: Moment, seconds: Int, pause: Int? = nil, resume: Int? = nil) -> (checked: Int, published: Int) {
        var shown: DisplayContent?
        var published: [String: JSONValue] = [:]
        var last: FleetStateReport?
        var checked = 0, count = 0
        for quarter in 0..<(seconds * 4) {
            let now = start + .milliseconds(250 * quarter)
            var effects = kiosk.handle(.deadline, at: now)
            if quarter == (pause ?? -1) * 4 { effects += kiosk.handle(.pressed(.dismiss), at: now) }
            if quarter == (resume ?? -1) * 4 { effects += kiosk.handle(.pressed(.start), at: now) }
            for case .display(let content) in effects { shown = content }
            let report = FleetStateReport(kiosk)
            if report != last {
                last = report
                count += 1
                published = object(report.json(display: shown?.text ?? "    ", at: unix(now), unix: unix))
            }
            guard let shown, shown.colon, let left = readerSeconds(published, at: unix(now)) else { continue }
            #expect(DisplayContent.time(seconds: left).text == shown.text, "at \(now): the state says \(left) s, the display \(shown.text)")
            checked += 1
        }
        return (checked, count)
    }

    @Test func anyReaderShowsTheDisplaysTimeAtAnyMomentFromTheStatesPublishedOnChangeAlone() {
        var settings = KioskSettings(startMode: .interval)
        settings.interval = IntervalSettings(phaseSeconds: 20, sets: 2)
        var kiosk = Kiosk(settings: settings)
        _ = kiosk.start(at: .origin)
        let start = Moment(.seconds(10))
        _ = kiosk.handle(.pressed(.start), at: start)
        // Paused from 27 s to 35 s into the run: `remaining` carries it, then a new deadline.
        let interval = checkLive(&kiosk, from: start, seconds: 75, pause: 27, resume: 35)
        #expect(interval.checked > 200, "the display showed a time most of the run: \(interval.checked)")
        #expect(interval.published < 15, "published on change only, not per second: \(interval.published)")

        var rest = Kiosk(settings: KioskSettings())
        _ = rest.start(at: .origin)
        _ = rest.handle(.pressed(.start), at: start)
        _ = rest.handle(.released(.start), at: start + .milliseconds(80))
        let resting = checkLive(&rest, from: start + .milliseconds(80), seconds: 85)
        #expect(resting.checked > 300 && resting.published <= 2, "\(resting)")
    }

    @Test func aProgramsAndAWorkoutsCountdownsAreLiveForAnyReaderToo() {
        for mode in [StartMode.program, .workout] {
            var kiosk = Kiosk(settings: KioskSettings(startMode: mode))
            _ = kiosk.start(at: .origin)
            let start = Moment(.seconds(10))
            _ = kiosk.handle(.pressed(.start), at: start)
            _ = kiosk.handle(.released(.start), at: start + .milliseconds(80))
            #expect(FleetStateReport(kiosk).phase != "idle", "\(mode) started")
            // Lead-in, work and rest segments, and a pause in the middle.
            let run = checkLive(&kiosk, from: start + .milliseconds(80), seconds: 60, pause: 22, resume: 30)
            #expect(run.checked > 100, "\(mode): \(run)")
        }
    }
}
