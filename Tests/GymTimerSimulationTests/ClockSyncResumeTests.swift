import Foundation
import GymTimerCore
import GymTimerHAL
import GymTimerHistory
import GymTimerSimulation
import Testing
@testable import GymTimerRuntime
@testable import GymTimerSetup
@testable import GymTimerSimulator
import GymTimerSystem

/// A run held after a reboot on an unsynchronised clock (issue #24) resumes once the clock
/// synchronises, where the now-trusted wall clock says it should be: the loop re-reads the
/// clock every `KioskRuntime.clockRecheck` while something is held (a slewed synchronisation
/// steps nothing). Virtual time, injected clock readings and wall time.
@Suite struct ClockSyncResumeTests {
    static let savedAt = Moment(.seconds(1_795_000_000))

    /// Sleeps on the virtual clock until the deadline it is given.
    /// At `stepAt` (since the start), it wakes as poll would for the wall clock's step.
    final class VirtualWaiter: InputWaiter {
        let clock: VirtualClock
        let start: VirtualClock.Instant
        var stepAt: Duration?
        var steps: ClockStepSource?
        init(clock: VirtualClock) {
            self.clock = clock
            start = clock.now
        }
        func wait(timeout: Duration?) throws(HALError) -> [InputEdge] {
            let wanted = timeout ?? .seconds(1)
            if let stepAt, let steps, steps.pollRequest != nil, start.duration(to: clock.now) + wanted >= stepAt {
                clock.advance(by: max(.zero, stepAt - start.duration(to: clock.now)))
                self.stepAt = nil
                steps.serve(revents: Int16(POLLIN))
                return []
            }
            clock.advance(by: wanted)
            return []
        }
    }

    /// What the rebooted kiosk's clocks say: whether synchronised, and the true wall time.
    final class Clocks {
        let virtual = VirtualClock()
        var synchronised = false
        /// The true wall time when the virtual clock read `start`.
        var trueStart = Moment.origin
        let start: VirtualClock.Instant
        init() { start = virtual.now }
        var trueNow: Moment { trueStart + start.duration(to: virtual.now) }
        /// The rebooted kiosk's reading: boot "b", its boot clock running with the virtual one.
        func reading() -> ClockReading {
            ClockReading(bootID: "b", sinceBoot: .seconds(20) + start.duration(to: virtual.now), synchronised: synchronised)
        }
    }

    /// A rebooted kiosk: `kiosk`'s journal, saved at `savedAt` on a synchronised clock, restored
    /// after a power cut of `cut` by a loop whose wall clock started `wallError` off the true
    /// time, not synchronised.
    struct Rebooted {
        let clocks: Clocks
        let runtime: KioskRuntime<VirtualClock>
        let history: InMemoryHistory
        let database: HistoryStore
        let lines: LogLines
        let files: ScratchDirectory
        let waiter: VirtualWaiter
        let steps: ClockStepSource

        init(_ kiosk: Kiosk, cut: Duration, wallError: Duration, savedSynchronised: Bool = true) throws {
            files = try ScratchDirectory()
            database = HistoryStore.opening(path: files.path + "/history.sqlite", faults: FaultLog { _ in })
            let before = KioskStore(directory: files.path, history: database, faults: FaultLog { _ in })
            before.clock = { ClockReading(bootID: "a", sinceBoot: .seconds(500), synchronised: savedSynchronised) }
            before.save(kiosk: kiosk, held: [:], at: ClockSyncResumeTests.savedAt)

            let clocks = Clocks()
            clocks.trueStart = ClockSyncResumeTests.savedAt + cut
            self.clocks = clocks
            let lines = LogLines()
            self.lines = lines
            let faults = FaultLog { lines.append($0) }
            let store = KioskStore(directory: files.path, history: database, faults: faults)
            store.clock = clocks.reading
            let (trueStart, start, virtual) = (clocks.trueStart, clocks.start, clocks.virtual)
            store.wallClock = WallClock { (trueStart + start.duration(to: virtual.now)).sinceOrigin }
            // The loop's timeline is the wall clock as it read at start-up, `wallError` off.
            let origin = clocks.virtual.now.advanced(by: .zero - (clocks.trueStart + wallError).sinceOrigin)
            let devices = SimulatedDevices()
            waiter = VirtualWaiter(clock: clocks.virtual)
            steps = ClockStepSource(faults: faults)
            waiter.steps = steps
            let kioskDevices = KioskDevices(
                waiter: waiter, inputs: [:], display: devices.display, buzzer: devices.buzzer,
                leds: devices.leds, sound: devices.sound)
            let stored = try #require(store.load())
            let restored = store.restore(stored, settings: kiosk.settings, at: Moment(origin.duration(to: clocks.virtual.now)))
            history = InMemoryHistory()
            runtime = KioskRuntime(
                kiosk: restored, clock: clocks.virtual, origin: origin, devices: kioskDevices, history: history, faults: faults,
                store: store, clockSteps: steps)
            runtime.start()
        }

        /// A restart on the same data directory at `now` (on the new process's timeline): the
        /// store it makes and the kiosk it restores.
        func restarted(at now: Moment) throws -> (KioskStore<HistoryStore>, Kiosk) {
            let lines = lines
            let store = KioskStore(directory: files.path, history: database, faults: FaultLog { lines.append($0) })
            store.clock = clocks.reading
            let stored = try #require(store.load())
            return (store, store.restore(stored, settings: runtime.kiosk.settings, at: now))
        }

        /// Seconds since the loop started.
        var elapsed: Duration { clocks.start.duration(to: clocks.virtual.now) }

        /// Steps the loop until `seconds` have passed since it started.
        func run(until seconds: Int) throws {
            while elapsed < .seconds(seconds) { try runtime.step() }
        }
    }

    /// Collects the fault log's lines.
    final class LogLines: @unchecked Sendable {
        var all: [String] = []
        func append(_ line: String) { all.append(line) }
        func contains(_ text: String) -> Bool { all.contains { $0.contains(text) } }
    }

    func resting(_ seconds: Int, startedBefore: Duration) -> Kiosk {
        restingKiosk(seconds, startedBefore: startedBefore, savedAt: Self.savedAt)
    }

    func restRemaining(_ kiosk: Kiosk, at now: Moment) -> Duration? {
        guard case .rest(let rest) = kiosk.mode, case .resting(let countdown, _) = rest.phase else { return nil }
        return countdown.remaining(at: now)
    }

    /// A rest with 110 s left at a 40 s power cut, the clock back 3 h behind: held with its
    /// 110 s (counting) while the clock is not synchronised, however often the loop re-reads
    /// it; once synchronised (no step: slewed), the next re-check, within 10 s, resumes it
    /// with what is really left, 110 - 40 - the time since the start, and says so.
    @Test func aHeldRestResumesWhereTheClockSaysOnceItSynchronises() throws {
        let kiosk = resting(120, startedBefore: .seconds(10))
        let rebooted = try Rebooted(kiosk, cut: .seconds(40), wallError: .seconds(-3 * 3600))
        let runtime = rebooted.runtime
        #expect(rebooted.lines.contains("waiting for the clock"), "\(rebooted.lines.all)")
        try rebooted.run(until: 25)
        #expect(restRemaining(runtime.kiosk, at: runtime.now) == .seconds(110) - rebooted.elapsed, "held, counting")
        #expect(!rebooted.lines.contains("clock synchronised"))

        rebooted.clocks.synchronised = true
        let syncedAt = rebooted.elapsed
        while !rebooted.lines.contains("clock synchronised"), rebooted.elapsed < syncedAt + .seconds(11) { try runtime.step() }
        #expect(rebooted.lines.contains("state: clock synchronised: rest resumed where the clock says"), "\(rebooted.lines.all)")
        #expect(rebooted.elapsed <= syncedAt + KioskRuntime<VirtualClock>.clockRecheck + .seconds(1))
        let left = try #require(restRemaining(runtime.kiosk, at: runtime.now), "still resting: \(runtime.kiosk.mode)")
        #expect(left == .seconds(110 - 40) - rebooted.elapsed, "resumed on the true clock")
        // The display shows it at once.
        let shown = try #require(runtime.shownDisplay)
        #expect(shown == .time(seconds: Int((left + .nanoseconds(999_999_999)).components.seconds)), "\(shown.text)")
        // Resumed once: later re-checks change nothing.
        try rebooted.run(until: Int(rebooted.elapsed.components.seconds) + 25)
        #expect(rebooted.lines.all.filter { $0.contains("clock synchronised") }.count == 1)
    }

    /// An AMRAP of 10 minutes with 9:54 left, the power out for 2 h, the clock back 10 h
    /// ahead: paused at 9:54 until the clock synchronises, then ended and recorded once as the
    /// full 10 minutes (it ran out during the cut), never recorded while held.
    @Test func aHeldProgramThatEndedDuringTheCutIsRecordedOnSync() throws {
        var settings = KioskSettings()
        settings.programs = ProgramSettings(programs: [Program(name: "AMRAP", label: "A 10", leadInSeconds: 0, format: .amrap(timeSeconds: 600))])
        settings.startMode = .program
        var kiosk = Kiosk(settings: settings)
        _ = kiosk.handle(.pressed(.start), at: Self.savedAt - .seconds(6))
        let rebooted = try Rebooted(kiosk, cut: .seconds(7200), wallError: .seconds(36_000))
        try rebooted.run(until: 30)
        guard case .program(let program) = rebooted.runtime.kiosk.mode, let run = program.run, case .running(let segments) = run.phase else {
            Issue.record("the program was lost: \(rebooted.runtime.kiosk.mode)")
            return
        }
        #expect(segments.isPaused && segments.displayedSeconds(at: rebooted.runtime.now) == 594, "held at 9:54")
        #expect(rebooted.history.records.isEmpty)

        rebooted.clocks.synchronised = true
        try rebooted.run(until: 45)
        #expect(rebooted.lines.contains("clock synchronised: program resumed"), "\(rebooted.lines.all)")
        let recorded = rebooted.history.records.map(\.kind) + ((try? rebooted.database.workouts()) ?? []).map(\.kind)
        #expect(recorded.count == 1, "recorded once: \(recorded)")
    }

    /// A held program the lifter resumed by hand before the clock synchronised is theirs: the
    /// synchronisation leaves it running as it is, and the loop stops re-reading the clock.
    @Test func aHeldRunTheLifterTookOverIsLeftAsItIs() throws {
        var settings = KioskSettings()
        settings.programs = ProgramSettings(programs: [Program(name: "AMRAP", label: "A 10", leadInSeconds: 0, format: .amrap(timeSeconds: 600))])
        settings.startMode = .program
        var kiosk = Kiosk(settings: settings)
        _ = kiosk.handle(.pressed(.start), at: Self.savedAt - .seconds(6))
        let rebooted = try Rebooted(kiosk, cut: .seconds(60), wallError: .seconds(-3600))
        let runtime = rebooted.runtime
        try rebooted.run(until: 5)
        runtime.inject(.pressed(.start), at: runtime.now)
        runtime.inject(.released(.start), at: runtime.now)
        let resumedByHand = runtime.kiosk
        rebooted.clocks.synchronised = true
        try rebooted.run(until: 30)
        #expect(!rebooted.lines.contains("clock synchronised:"), "\(rebooted.lines.all)")
        #expect(rebooted.lines.contains("the held run moved on (a press, a beep, its end) before the clock synchronised"), "\(rebooted.lines.all)")
        #expect(KioskProgress(runtime.kiosk) == KioskProgress(resumedByHand))
    }

    /// NTP stepping the clock wakes the loop at once (the step's timerfd), not at the next
    /// 10 s re-check: a rest resumed the moment its clock was stepped right. The descriptor is
    /// polled only while something is held.
    @Test func aStepResumesAtOnce() throws {
        let rebooted = try Rebooted(resting(300, startedBefore: .seconds(10)), cut: .seconds(40), wallError: .seconds(-3 * 3600))
        let runtime = rebooted.runtime
        try rebooted.run(until: 3)
        #expect(rebooted.steps.pollRequest != nil, "listening while the rest is held")
        rebooted.clocks.synchronised = true
        rebooted.waiter.stepAt = .milliseconds(4500)
        try rebooted.run(until: 5)
        #expect(rebooted.lines.contains("state: clock synchronised: rest resumed"), "\(rebooted.lines.all)")
        #expect(restRemaining(runtime.kiosk, at: runtime.now) == .seconds(290 - 40) - rebooted.elapsed)
        try runtime.step()
        #expect(rebooted.steps.pollRequest == nil, "not listening once nothing is held")
    }

    /// The step descriptor is quiet while the clock runs on: no tick, nothing to serve.
    @Test func theStepDescriptorIsQuietWithoutAStep() throws {
        let source = ClockStepSource(faults: FaultLog { Issue.record("\($0)") })
        source.listening = true
        var fds = [try #require(source.pollRequest)]
        #expect(try SystemCall.poll(&fds, timeout: .milliseconds(20), device: "test") == 0)
        #expect(!source.takeStep())
    }

    /// A restart before the clock synchronises (a crash, `systemctl restart`) keeps waiting:
    /// the rest still held with what it had, and the journal still names the power cut's save,
    /// so a restart once the clock is synchronised resumes it where the clock says.
    @Test func aRestartBeforeTheClockSynchronisesKeepsWaiting() throws {
        let rebooted = try Rebooted(resting(300, startedBefore: .seconds(10)), cut: .seconds(40), wallError: .seconds(-3 * 3600))
        try rebooted.run(until: 5)
        // Same boot, same unsynchronised clock: the new process's timeline is the loop's.
        let at = rebooted.runtime.now
        let (second, held) = try rebooted.restarted(at: at)
        #expect(second.awaitsClock, "still waiting for the clock")
        #expect(restRemaining(held, at: at) == .seconds(290) - rebooted.elapsed)
        second.save(kiosk: held, held: [:], at: at)

        rebooted.clocks.synchronised = true
        // Synchronised now: a restart's timeline is the true wall clock.
        let (third, resumed) = try rebooted.restarted(at: rebooted.clocks.trueNow)
        #expect(!third.awaitsClock)
        #expect(rebooted.lines.contains("state: clock synchronised: rest resumed where the clock says"), "\(rebooted.lines.all)")
        #expect(restRemaining(resumed, at: rebooted.clocks.trueNow) == .seconds(290 - 40) - rebooted.elapsed)
    }

    /// A save made on an unsynchronised clock (the power failed again before NTP came back)
    /// names no true instant: the run stays held as it was, the log says start resumes it, and
    /// the loop does not re-read the clock for it.
    @Test func aSaveOnAnUnsynchronisedClockIsNotWaitedFor() throws {
        let rebooted = try Rebooted(
            resting(300, startedBefore: .seconds(10)), cut: .seconds(40), wallError: .seconds(-3600), savedSynchronised: false)
        #expect(rebooted.lines.contains("no synchronisation can place it"), "\(rebooted.lines.all)")
        rebooted.clocks.synchronised = true
        try rebooted.run(until: 30)
        #expect(rebooted.steps.pollRequest == nil, "not listening for a step")
        #expect(!rebooted.lines.contains("clock synchronised:"), "\(rebooted.lines.all)")
        #expect(restRemaining(rebooted.runtime.kiosk, at: rebooted.runtime.now) == .seconds(290) - rebooted.elapsed)
    }
}
