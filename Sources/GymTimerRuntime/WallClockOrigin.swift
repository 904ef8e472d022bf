import GymTimerCore
import GymTimerSystem

/// The instant of `clock` that is the Unix epoch on a kiosk's timeline: the origin of a loop
/// whose running state is kept across restarts (`run`, and the simulators with a data
/// directory). A moment is then its own Unix time. Both clocks are read here, together.
///
/// So a `Moment` is wall time: a deadline stored before a restart (a reboot, a crash, an
/// update) still names the same instant afterwards, and a rest resumes where the clock says it
/// should. Between restarts the loop runs on the monotonic clock, so adjusting the wall clock
/// never makes a countdown jump.
public func wallClockOrigin(of clock: ContinuousClock, wall: WallClock = .system) -> ContinuousClock.Instant {
    let wallTime = wall.sinceEpoch
    return clock.now.advanced(by: .zero - wallTime)
}
