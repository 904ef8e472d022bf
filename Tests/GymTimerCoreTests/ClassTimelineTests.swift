import Foundation
import Testing
@testable import GymTimerCore

/// A class's instants (`ClassTimeline`) and a run following them (`KioskCommand.followClass`):
/// the timing they give, a station moved forward or back to its class, the calls then given at
/// the class's moments, and instants that cannot be a class's or a run that is not its class's.
@Suite struct ClassTimelineTests {
    /// 3 rounds of 40 s work and 20 s rest between them after a 5 s lead-in: 165 s of active time.
    let sent = Program(name: "Row 3 x 40", label: "ro 3", leadInSeconds: 5, format: .intervals(rounds: 3, workSeconds: 40, restSeconds: 20))

    /// A kiosk running `sent` as a class whose work began at 10 s (its run at 5 s).
    func inClass() -> Driver<Kiosk> {
        var driver = Driver.startedKiosk()
        driver.send(.command(.selectProgram(sent)), at: at(1))
        driver.send(.command(.classStart(expecting: nil, workBegins: at(10))), at: at(5))
        return driver
    }

    func timing(_ driver: Driver<Kiosk>) -> SegmentRun.Timing? {
        if case .running(let run)? = driver.machine.hostedRun?.phase { return run.timing }
        return nil
    }

    func resting(_ driver: Driver<Kiosk>) -> Bool {
        guard let run = driver.machine.hostedRun, case .running(let segments) = run.phase else { return false }
        return run.plan.intervals[segments.segment].leds == [.low]
    }

    @Test func theTimingIsTheClassesStartPlusItsClosedPausesOrWhatWasLeftAtTheOpenOne() {
        let total = Duration.seconds(185), leadIn = Duration.seconds(5)
        #expect(ClassTimeline(workBegins: at(10)).timing(total: total, leadIn: leadIn) == .running(end: at(190)))
        let closed = ClassTimeline(workBegins: at(10), pauses: [.init(from: at(20), until: at(23)), .init(from: at(30), until: at(31))])
        #expect(closed.timing(total: total, leadIn: leadIn) == .running(end: at(194)))
        let open = ClassTimeline(workBegins: at(10), pauses: [.init(from: at(20), until: at(23)), .init(from: at(30), until: nil)])
        // Ran 15 s before the first pause and 7 s after it: 185 - 22 s left.
        #expect(open.timing(total: total, leadIn: leadIn) == .paused(remaining: .seconds(163)))
    }

    @Test func instantsThatCannotBeAClassesAreNamed() {
        let leadIn = Duration.seconds(5)
        #expect(ClassTimeline(workBegins: at(10), pauses: [.init(from: at(20), until: at(19))]).problem(leadIn: leadIn)
                == "pause 1 ends before it begins")
        #expect(ClassTimeline(workBegins: at(10), pauses: [.init(from: at(20), until: nil), .init(from: at(30), until: at(31))]).problem(leadIn: leadIn)
                == "pause 1 never ends but is not the last")
        #expect(ClassTimeline(workBegins: at(10), pauses: [.init(from: at(2), until: at(3))]).problem(leadIn: leadIn)
                == "pause 1 is before what it follows")
        let many: [ClassTimeline.Pause] = (0...ClassTimeline.maximumPauses).map { index in
            let from: Double = 20 + 2 * Double(index)
            return ClassTimeline.Pause(from: at(from), until: at(from + 1))
        }
        #expect(ClassTimeline(workBegins: at(10), pauses: many).problem(leadIn: leadIn) == "more than 100 pauses")
    }

    @Test func aStationThatMissedAPauseIsMovedBackAndGivesTheClassesCallsAtTheClassesMoments() {
        var driver = inClass()
        driver.run(to: at(55))
        #expect(resting(driver), "its own time: resting")
        // The class was paused from 20 to 30 s; this station never heard it: 10 s ahead.
        let effects = driver.send(.command(.followClass(ClassTimeline(workBegins: at(10), pauses: [.init(from: at(20), until: at(30))]))), at: at(55))
        #expect(timing(driver) == .running(end: at(180)))
        #expect(effects.contains(.display(.time(seconds: 5))), "40 s of work, 35 done in the class's time: \(effects)")
        driver.run(to: at(211))
        let changes = driver.log.filter { $0.at > at(55) }.compactMap { entry -> Double? in
            if case .leds = entry.effect { return Double(entry.at.nanoseconds) / 1e9 }
            return nil
        }
        #expect(changes.first == 60, "the first rest at the class's 60 s (10 + 40 + 10 s paused): \(changes)")
        let record = driver.log.compactMap { if case .record(let record) = $0.effect { record } else { nil } }.first
        #expect(record?.endedAt == at(180), "ends with the class: \(String(describing: record))")
    }

    @Test func aStationRestartedThroughAnOpenPauseIsPausedWhereTheClassIs() {
        var driver = inClass()
        driver.run(to: at(40))
        driver.send(.command(.followClass(ClassTimeline(workBegins: at(10), pauses: [.init(from: at(30), until: nil)]))), at: at(40))
        #expect(timing(driver) == .paused(remaining: .seconds(140)), "25 s run of 165: \(String(describing: timing(driver)))")
        #expect(driver.machine.hostedRun?.isPaused == true)
        // The same instants again change nothing.
        #expect(driver.send(.command(.followClass(ClassTimeline(workBegins: at(10), pauses: [.init(from: at(30), until: nil)]))), at: at(41)) == [])
    }

    @Test func anotherRunOrNoRunRefusesAndChangesNothing() {
        var driver = inClass()
        driver.run(to: at(20))
        let before = timing(driver)
        let other = driver.send(.command(.followClass(ClassTimeline(workBegins: at(14)))), at: at(20))
        #expect(other.contains(.refused(KioskRefusal("follow", "the run under way is not this class's"))))
        #expect(timing(driver) == before)
        var idle = Driver(Kiosk(settings: KioskSettings()))
        let none = idle.send(.command(.followClass(ClassTimeline(workBegins: at(10)))), at: at(20))
        #expect(none.contains { if case .refused(let refusal) = $0 { refusal.command == "follow" } else { false } })
    }
}
