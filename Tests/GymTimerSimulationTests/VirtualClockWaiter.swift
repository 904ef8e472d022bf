import GymTimerHAL
import GymTimerRuntime
import GymTimerSimulation

/// The loop's one blocking point on a virtual clock, for the runtime tests that drive a
/// `KioskRuntime` without inputs: each wait advances the clock to the deadline it is given
/// (a second when it has none), so the loop runs as fast as it can and exactly on time.
final class VirtualClockWaiter: InputWaiter {
    let clock: VirtualClock
    init(clock: VirtualClock) { self.clock = clock }
    func wait(timeout: Duration?) throws(HALError) -> [InputEdge] {
        clock.advance(by: timeout ?? .seconds(1))
        return []
    }
}
