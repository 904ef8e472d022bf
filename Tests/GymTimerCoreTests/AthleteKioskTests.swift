import Foundation
import Testing
@testable import GymTimerCore

/// Who trains at the station: a tap puts an athlete on it, their records carry their card, and
/// they leave by tapping out, by another card's tap, or by the station's idle time-out.
@Suite struct AthleteKioskTests {
    let anna = CardTap(card: CardID(hex: "04A1B2C3")!, shortName: "AnnA")
    let ben = CardTap(card: CardID(hex: "04:5E:77:10:22:90:81")!, shortName: "bEn")

    func click(_ driver: inout Driver<Kiosk>, _ button: ControlButton, at seconds: Double) {
        driver.send(.pressed(button), at: at(seconds))
        driver.send(.released(button), at: at(seconds + 0.08))
    }

    /// One rest of the default 90 s from `seconds`, dismissed at its alarm: one set.
    func oneSet(_ driver: inout Driver<Kiosk>, from seconds: Double) {
        click(&driver, .start, at: seconds)
        click(&driver, .dismiss, at: seconds + 91)
    }

    func endWorkout(_ driver: inout Driver<Kiosk>, at seconds: Double) {
        driver.send(.pressed(.dismiss), at: at(seconds))
        driver.send(.held(.dismiss), at: at(seconds + 2))
        driver.send(.released(.dismiss), at: at(seconds + 2.5))
    }

    @Test func aTapShowsTheNameThenTheTimerAndTheWorkoutIsTheirs() {
        var driver = Driver.startedKiosk()
        let effects = driver.send(.tapped(anna), at: at(1))
        #expect(effects == [.buzzer(.warningBeep), .display(DisplayContent(text: "AnnA"))])
        #expect(driver.machine.athlete?.card == anna.card)
        driver.run(to: at(3))
        #expect(driver.display(at: at(3)) == .time(seconds: 90), "the timer is back after the notice")
        oneSet(&driver, from: 5)
        oneSet(&driver, from: 100)
        endWorkout(&driver, at: 200)
        #expect(driver.records.map(\.sets) == [2])
        #expect(driver.records.map(\.athlete) == [anna.card])
    }

    @Test func anotherCardTakesTheStationAndTheRestWorkoutSoFarStaysTheFirstAthletes() {
        var driver = Driver.startedKiosk()
        driver.send(.tapped(anna), at: at(1))
        oneSet(&driver, from: 5)
        // Ben taps in during Anna's next rest: her one set is hers, the rest runs on as his.
        click(&driver, .start, at: 100)
        let handover = driver.send(.tapped(ben), at: at(120))
        #expect(handover.contains(.display(DisplayContent(text: "bEn"))))
        #expect(!handover.contains(.buzzer(.warningBeep)), "no chirp over a running rest")
        #expect(driver.records.map(\.athlete) == [anna.card])
        #expect(driver.records.map(\.sets) == [1])
        click(&driver, .dismiss, at: 191)
        endWorkout(&driver, at: 200)
        #expect(driver.records.map(\.athlete) == [anna.card, ben.card])
        #expect(driver.records.last?.sets == 1)
        #expect(driver.records.last?.duration == .seconds(82), "his workout began when he tapped in, mid-rest")
    }

    @Test func aGuestsSetsStayAGuestsWhenAnAthleteTapsIn() {
        var driver = Driver.startedKiosk()
        oneSet(&driver, from: 1)
        driver.send(.tapped(ben), at: at(100))
        #expect(driver.records.map(\.athlete) == [nil], "the guest's set, closed by Ben's tap, is nobody's")
        oneSet(&driver, from: 110)
        endWorkout(&driver, at: 210)
        #expect(driver.records.map(\.athlete) == [nil, ben.card])
    }

    @Test func theSameCardAgainSoonOnlyShowsTheNameLaterItTapsOut() {
        var driver = Driver.startedKiosk()
        driver.send(.tapped(anna), at: at(1))
        #expect(driver.send(.tapped(anna), at: at(3)).contains(.display(DisplayContent(text: "AnnA"))))
        #expect(driver.machine.athlete != nil, "a second read within the repeat window is not a tap out")
        oneSet(&driver, from: 10)
        let out = driver.send(.tapped(anna), at: at(120))
        #expect(out.contains(.display(DisplayContent(text: "out "))))
        #expect(driver.machine.athlete == nil)
        #expect(driver.records.map(\.athlete) == [anna.card], "tapping out closes her workout as hers")
        oneSet(&driver, from: 130)
        endWorkout(&driver, at: 300)
        #expect(driver.records.map(\.athlete) == [anna.card, nil], "after her, a guest")
    }

    @Test func anIdleStationLetsItsAthleteGoAfterTheTimeOutButNotDuringARun() {
        var settings = KioskSettings(startMode: .program)
        settings.athletes = AthleteSettings(idleTimeout: .seconds(60))
        var kiosk = Kiosk(settings: settings)
        _ = kiosk.start(at: .origin)
        var driver = Driver(kiosk)
        driver.send(.tapped(anna), at: at(1))
        driver.run(to: at(3))
        #expect(driver.machine.nextDeadline(after: at(3)) == at(61), "the time-out from the tap, no tick before it")
        driver.run(to: at(60.9))
        #expect(driver.machine.athlete != nil)
        driver.run(to: at(61))
        #expect(driver.machine.athlete == nil, "idle and untouched for the time-out")

        driver.send(.tapped(ben), at: at(100))
        click(&driver, .start, at: 101)
        // The first program runs well past the time-out: Ben stays while it runs.
        driver.run(to: at(400))
        #expect(driver.machine.athlete?.card == ben.card)
        #expect(driver.machine.isIdle == false)
    }

    @Test func aCardWithoutADrawableNameShowsItsLastFourDigits() {
        var driver = Driver.startedKiosk()
        let stranger = CardTap(card: CardID(bytes: [0x08, 0x1A, 0x2B, 0x3C])!, shortName: "Kim!")
        #expect(driver.send(.tapped(stranger), at: at(1)).contains(.display(DisplayContent(text: "2B3C"))))
    }

    @Test func aLockedStationStillTakesTapsAndTheCoachCanPutAnAthleteOnIt() {
        var driver = Driver.startedKiosk()
        driver.send(.command(.lockButtons(true)), at: at(1))
        driver.send(.tapped(anna), at: at(2))
        #expect(driver.machine.athlete?.card == anna.card)
        driver.send(.command(.setAthlete(ben)), at: at(3))
        #expect(driver.machine.athlete?.card == ben.card)
        driver.send(.command(.setAthlete(nil)), at: at(4))
        #expect(driver.machine.athlete == nil)
    }

    @Test func aRestartKeepsTheAthleteAndTheirWorkout() throws {
        var driver = Driver.startedKiosk()
        driver.send(.tapped(anna), at: at(1))
        oneSet(&driver, from: 5)
        let stored = try JSONEncoder().encode(KioskProgress(driver.machine))
        let progress = try JSONDecoder().decode(KioskProgress.self, from: stored)
        let restored = KioskRestore(progress: progress, savedAt: at(100), settings: KioskSettings())
        #expect(restored.kiosk.athlete?.card == anna.card)
        var after = Driver(restored.kiosk, at: at(100))
        endWorkout(&after, at: 110)
        #expect(after.records.map(\.athlete) == [anna.card])
        #expect(after.records.map(\.sets) == [1])
    }

    @Test func aStoredAthleteWithMomentsFarFromTheSaveIsDroppedNotComputedWith() throws {
        var driver = Driver.startedKiosk()
        driver.send(.tapped(anna), at: at(1))
        var progress = KioskProgress(driver.machine)
        for absurd in [Moment(nanoseconds: .max), Moment(nanoseconds: .min), at(1e9)] {
            progress.athlete?.usedAt = absurd
            let restored = KioskRestore(progress: progress, savedAt: at(10), settings: KioskSettings())
            #expect(restored.kiosk.athlete == nil)
            #expect(restored.kiosk.nextDeadline(after: at(10)) == nil, "nothing overflows")
        }
    }

    @Test func aCardIDIsOneToTenBytesOfHexAndNothingElse() throws {
        #expect(CardID(bytes: [0x04, 0xA1, 0x0B, 0xFF])?.hex == "04A10BFF")
        #expect(CardID(bytes: []) == nil)
        #expect(CardID(bytes: Array(repeating: 7, count: 11)) == nil)
        #expect(CardID(hex: "04:a1:0b:ff")?.hex == "04A10BFF")
        for bad in ["", "0", "0G", "04A1B", String(repeating: "A", count: 22), "٠٤", "04 A1", String(repeating: ":", count: 10_000)] {
            #expect(CardID(hex: bad) == nil, "\(bad.prefix(20)) is not a UID")
        }
        let json = try JSONEncoder().encode([CardID(hex: "04A1B2C3")!])
        #expect(String(decoding: json, as: UTF8.self) == "[\"04A1B2C3\"]")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([CardID].self, from: Data("[\"zz\"]".utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([CardID].self, from: Data("[42]".utf8)) }
    }
}
