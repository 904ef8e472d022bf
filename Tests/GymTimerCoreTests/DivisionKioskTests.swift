import Testing
@testable import GymTimerCore

/// Rx or Scaled at the wall (`Kiosk+Division`): dismiss in program idle switches it, the knob
/// sets it while the run counts no round, a fresh athlete starts Rx, the coach's list may say
/// Scaled, and every program result carries it. A result beating the athlete's known best of
/// that program and division says `Pr` (and its cue), once per better result, never offline.
@Suite struct DivisionKioskTests {
    static let quick = Program(name: "Quick", label: "A 1", leadInSeconds: 10, format: .amrap(timeSeconds: 60))
    static let bests = AthleteBests([
        .init(program: "Quick", division: .rx, score: ProgramScore(rounds: 3)),
        .init(program: "Quick", division: .scaled, score: ProgramScore(rounds: 10)),
    ])
    let anna = CardTap(card: CardID(hex: "04A1B2C3")!, shortName: "AnnA", bests: Self.bests)

    static func programKiosk() -> Driver<Kiosk> {
        var kiosk = Kiosk(settings: KioskSettings(startMode: .program, programs: ProgramSettings(programs: [quick])))
        _ = kiosk.start(at: .origin)
        return Driver(kiosk)
    }

    func click(_ driver: inout Driver<Kiosk>, _ button: ControlButton, at seconds: Double) {
        driver.send(.pressed(button), at: at(seconds))
        driver.send(.released(button), at: at(seconds + 0.08))
    }

    /// One run of `Quick` from `seconds` (lead-in 10 s, 60 s of work) with `rounds` counted,
    /// its result dismissed 5 s after the end; the effects from its end to the dismissal.
    @discardableResult
    func run(_ driver: inout Driver<Kiosk>, from seconds: Double, rounds: Int) -> [Effect] {
        click(&driver, .start, at: seconds)
        for round in 0..<rounds { click(&driver, .start, at: seconds + 15 + Double(round)) }
        let before = driver.log.count
        driver.run(to: at(seconds + 71))
        let end = driver.log[before...].map(\.effect)
        click(&driver, .dismiss, at: seconds + 76)
        return end
    }

    @Test func dismissInProgramIdleSwitchesTheDivisionAndTheResultCarriesIt() {
        var driver = Self.programKiosk()
        #expect(driver.machine.division == .rx, "a guest starts Rx")
        let scaled = driver.send(.pressed(.dismiss), at: at(1))
        #expect(scaled.contains(.display(DisplayContent(text: " Sc "))))
        #expect(driver.machine.division == .scaled)
        driver.run(to: at(3))
        #expect(driver.display(at: at(3)) == DisplayContent(text: "A 1"), "the label is back after the notice")
        run(&driver, from: 5, rounds: 2)
        #expect(driver.records.map(\.division) == [.scaled])
        #expect(driver.records.map(\.score) == [ProgramScore(rounds: 2)])
        let rx = driver.send(.pressed(.dismiss), at: at(90))
        #expect(rx.contains(.display(DisplayContent(text: " rH "))))
        run(&driver, from: 95, rounds: 1)
        #expect(driver.records.map(\.division) == [.scaled, .rx])
    }

    @Test func theKnobSetsItWhereItCountsNoRoundAndCountsRoundsElsewhere() {
        var driver = Self.programKiosk()
        click(&driver, .start, at: 1)
        // The lead-in: the knob counts nothing, so it chooses (a turn of several detents lands once).
        #expect(driver.send(.turned(3), at: at(2)).contains(.display(DisplayContent(text: " Sc "))))
        #expect(driver.machine.division == .scaled)
        driver.send(.turned(-1), at: at(4))
        #expect(driver.machine.division == .rx)
        driver.send(.turned(1), at: at(6))
        // The work of an amrap: the knob corrects the count, the division stays.
        driver.send(.turned(2), at: at(20))
        #expect(driver.machine.division == .scaled)
        driver.run(to: at(71))
        #expect(driver.records.map(\.score) == [ProgramScore(rounds: 2)])
        #expect(driver.records.map(\.division) == [.scaled])
    }

    @Test func aFreshAthleteStartsRxAndTheCoachsListMaySayScaled() {
        var driver = Self.programKiosk()
        driver.send(.pressed(.dismiss), at: at(1))
        driver.send(.tapped(anna), at: at(3))
        #expect(driver.machine.division == .rx, "Anna taps in: Rx")
        let ben = CardTap(card: CardID(hex: "0E0F1011")!, division: .scaled)
        driver.send(.command(.setAthlete(ben)), at: at(6))
        #expect(driver.machine.division == .scaled && driver.machine.athlete?.card == ben.card)
        // The same athlete again, by card alone: still Scaled; then Rx by the list.
        driver.send(.command(.setAthlete(CardTap(card: ben.card))), at: at(8))
        #expect(driver.machine.division == .scaled)
        driver.send(.command(.setAthlete(CardTap(card: ben.card, division: .rx))), at: at(9))
        #expect(driver.machine.division == .rx)
        driver.send(.command(.setAthlete(nil)), at: at(10))
        #expect(driver.machine.division == .rx && driver.machine.athlete == nil)
    }

    @Test func aBeatenBestSaysPrAndIsKeptPerDivision() {
        var driver = Self.programKiosk()
        driver.send(.tapped(anna), at: at(1))
        // 4 rounds beat her Rx 3: Pr over the result and its cue, instead of the finish's.
        let first = run(&driver, from: 5, rounds: 4)
        #expect(first.contains(.sound(.personalRecord)))
        #expect(!first.contains(.sound(.complete)), "the personal-record cue instead of complete, not after it")
        #expect(first.contains(.display(DisplayContent(text: " Pr "))))
        #expect(driver.machine.athlete?.tap.bests?.best(of: "Quick", in: .rx) == ProgramScore(rounds: 4), "kept")
        // 4 again: equal, no record; 5: a record again.
        #expect(!run(&driver, from: 100, rounds: 4).contains(.sound(.personalRecord)))
        #expect(run(&driver, from: 200, rounds: 5).contains(.sound(.personalRecord)))
        // Scaled: 5 does not beat her Scaled 10 (nor counts against Rx).
        driver.send(.pressed(.dismiss), at: at(290))
        let scaled = run(&driver, from: 300, rounds: 5)
        #expect(!scaled.contains(.sound(.personalRecord)) && scaled.contains(.sound(.complete)))
        #expect(driver.records.map(\.division) == [.rx, .rx, .rx, .scaled])
        #expect(driver.records.allSatisfy { $0.athlete == anna.card })
        #expect(driver.machine.athlete?.tap.bests?.best(of: "Quick", in: .rx) == ProgramScore(rounds: 5))
    }

    @Test func withoutAKnownBestNothingExtraIsSaid() {
        var driver = Self.programKiosk()
        // Offline: the tap carries no bests.
        driver.send(.tapped(CardTap(card: anna.card, shortName: "AnnA")), at: at(1))
        let offline = run(&driver, from: 5, rounds: 9)
        #expect(!offline.contains(.sound(.personalRecord)) && offline.contains(.sound(.complete)))
        // Known, but no best of this program yet: the first result is no record, the next better one is.
        driver.send(.tapped(CardTap(card: CardID(hex: "0E0F1011")!, bests: AthleteBests())), at: at(90))
        #expect(!run(&driver, from: 100, rounds: 2).contains(.sound(.personalRecord)))
        #expect(run(&driver, from: 200, rounds: 3).contains(.sound(.personalRecord)))
        // A guest: never.
        driver.send(.tapped(CardTap(card: CardID(hex: "0E0F1011")!)), at: at(290))
        #expect(driver.machine.athlete == nil)
        #expect(!run(&driver, from: 300, rounds: 20).contains(.sound(.personalRecord)))
    }

    @Test func theDivisionSurvivesARestart() throws {
        var driver = Self.programKiosk()
        driver.send(.tapped(anna), at: at(1))
        driver.send(.pressed(.dismiss), at: at(3))
        let stored = KioskProgress(driver.machine)
        #expect(stored.division == .scaled)
        let restored = KioskRestore(progress: stored, savedAt: at(4), settings: driver.machine.settings).kiosk
        #expect(restored.division == .scaled && restored.athlete?.tap.bests == Self.bests)
    }
}
