import Foundation
import GymTimerCore
import GymTimerHistory
import GymTimerRuntime
import GymTimerSetup
import Testing
import GymTimerSystem

/// How a restart trusts the clock (`ClockTrust`, issue #24), with injected clock readings: the
/// monotonic clock within one boot, the wall clock across a reboot only once synchronised, and
/// otherwise the kiosk as it was at the save, nothing guessed.
@Suite struct ClockTrustTests {
    static let savedAt = Moment(.seconds(1_795_000_000))

    func reading(boot: String, _ sinceBoot: Int, synchronised: Bool) -> ClockReading {
        ClockReading(bootID: boot, sinceBoot: .seconds(sinceBoot), synchronised: synchronised)
    }

    @Test func theDecision() {
        let saved = reading(boot: "a", 100, synchronised: false)
        // Same boot, the wall clock stepped 10 h ahead while it was down 5 s.
        let stepped = Self.savedAt + .seconds(36_000 + 5)
        #expect(ClockTrust.decide(saved: saved, savedAt: Self.savedAt, current: reading(boot: "a", 105, synchronised: false), now: stepped)
            == .sameBoot(shift: .seconds(36_000)))
        // Another boot: the wall clock only when synchronised now and at the save.
        let later = Self.savedAt + .seconds(60)
        let synced = reading(boot: "a", 100, synchronised: true)
        #expect(ClockTrust.decide(saved: synced, savedAt: Self.savedAt, current: reading(boot: "b", 30, synchronised: true), now: later) == .wallClock)
        #expect(ClockTrust.decide(saved: synced, savedAt: Self.savedAt, current: reading(boot: "b", 30, synchronised: false), now: later)
            == .unknown(shift: .seconds(60)))
        #expect(ClockTrust.decide(saved: saved, savedAt: Self.savedAt, current: reading(boot: "b", 30, synchronised: true), now: later)
            == .unknown(shift: .seconds(60)))
        // An earlier release's journal (no reading): the wall clock if it is synchronised.
        #expect(ClockTrust.decide(saved: nil, savedAt: Self.savedAt, current: reading(boot: "b", 30, synchronised: true), now: later) == .wallClock)
        #expect(ClockTrust.decide(saved: nil, savedAt: Self.savedAt, current: reading(boot: "b", 30, synchronised: false), now: later)
            == .unknown(shift: .seconds(60)))
    }

    /// Saves `kiosk` at `savedAt` with the clock reading `saved`, and restores it at `now` with `current`.
    func restart(
        _ kiosk: Kiosk, saved: ClockReading, current: ClockReading, now: Moment, lines: inout [String]
    ) throws -> Kiosk {
        let files = try ScratchDirectory()
        let history = HistoryStore.opening(path: files.path + "/history.sqlite", faults: FaultLog { _ in })
        let store = KioskStore(directory: files.path, history: history, faults: FaultLog { _ in })
        store.clock = { saved }
        store.save(kiosk: kiosk, held: [:], at: Self.savedAt)
        var log: [String] = []
        let later = KioskStore(directory: files.path, history: history, faults: FaultLog { log.append($0) })
        later.clock = { current }
        let stored = try #require(later.load())
        let restored = later.restore(stored, settings: kiosk.settings, at: now)
        lines = log
        return restored
    }

    func resting(_ seconds: Int, startedBefore: Duration) -> Kiosk {
        restingKiosk(seconds, startedBefore: startedBefore, savedAt: Self.savedAt)
    }

    /// A rest saved 10 s in, the wall clock stepped 10 h while the loop ran and then 5 s went by
    /// down: 105 s left of 120 on the new timeline.
    @Test func withinOneBootARestResumesOnTheMonotonicClock() throws {
        var lines: [String] = []
        let now = Self.savedAt + .seconds(36_000 + 5)
        let kiosk = try restart(
            resting(120, startedBefore: .seconds(10)), saved: reading(boot: "a", 100, synchronised: true),
            current: reading(boot: "a", 105, synchronised: true), now: now, lines: &lines)
        guard case .rest(let rest) = kiosk.mode, case .resting(let countdown, _) = rest.phase else {
            Issue.record("the rest was lost: \(kiosk.mode)")
            return
        }
        #expect(countdown.remaining(at: now) == .seconds(105))
        #expect(lines.contains { $0.contains("the wall clock moved 36000.0 s since the save") }, "\(lines)")
    }

    /// After a reboot on a clock that is not synchronised (a Pi without a clock battery): the
    /// rest goes on with what it had at the power cut, and the log says the clock is awaited.
    @Test func afterARebootOnAnUnsynchronisedClockARestResumesAsItWasAtTheCut() throws {
        var lines: [String] = []
        // The clock came back 3 h behind the save.
        let now = Self.savedAt - .seconds(3 * 3600)
        let kiosk = try restart(
            resting(120, startedBefore: .seconds(10)), saved: reading(boot: "a", 100, synchronised: true),
            current: reading(boot: "b", 20, synchronised: false), now: now, lines: &lines)
        guard case .rest(let rest) = kiosk.mode, case .resting(let countdown, _) = rest.phase else {
            Issue.record("the rest was lost: \(kiosk.mode)")
            return
        }
        #expect(countdown.remaining(at: now) == .seconds(110))
        #expect(lines.contains { $0.contains("waiting for the clock") }, "\(lines)")
    }

    /// A 10-minute AMRAP after a reboot on an unsynchronised clock: held, paused where it was,
    /// never ended at once nor recorded.
    @Test func afterARebootOnAnUnsynchronisedClockAProgramIsHeld() throws {
        var settings = KioskSettings()
        settings.programs = ProgramSettings(programs: [Program(name: "AMRAP", label: "A 10", leadInSeconds: 0, format: .amrap(timeSeconds: 600))])
        settings.startMode = .program
        var kiosk = Kiosk(settings: settings)
        _ = kiosk.handle(.pressed(.start), at: Self.savedAt - .seconds(6))
        var lines: [String] = []
        // The clock came back 10 h ahead.
        let now = Self.savedAt + .seconds(36_000)
        let restored = try restart(
            kiosk, saved: reading(boot: "a", 100, synchronised: true), current: reading(boot: "b", 20, synchronised: false),
            now: now, lines: &lines)
        guard case .program(let program) = restored.mode, let run = program.run, case .running(let segments) = run.phase else {
            Issue.record("the program was lost: \(restored.mode)")
            return
        }
        #expect(segments.isPaused && segments.displayedSeconds(at: now) == 594, "held at 9:54")
        var next = restored
        let effects = next.handle(.deadline, at: now + .seconds(1))
        #expect(!effects.contains { if case .record = $0 { true } else { false } }, "nothing recorded")
    }
}
