import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerFleetLink
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
}
