import Glibc

/// The wall-clock time since the Unix epoch (CLOCK_REALTIME), read once at start-up.
///
/// `run` anchors the kiosk's timeline to it (`origin = now - wallTimeSinceEpoch`), so a
/// `Moment` is wall time: a deadline stored before a restart (a reboot, a crash, an update)
/// still names the same instant afterwards, and a rest resumes where the clock says it should.
/// Between restarts the loop runs on the monotonic clock, so adjusting the wall clock never
/// makes a countdown jump.
public func wallTimeSinceEpoch() -> Duration {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
}

/// The instant of `clock` that is the Unix epoch on a kiosk's timeline: the origin of a loop
/// whose running state is kept across restarts (`run`, and the simulators with a data
/// directory). A moment is then its own Unix time. Both clocks are read here, together.
public func wallClockOrigin(of clock: ContinuousClock) -> ContinuousClock.Instant {
    let wallTime = wallTimeSinceEpoch()
    return clock.now.advanced(by: .zero - wallTime)
}
