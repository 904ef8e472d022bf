import Glibc
import GymTimerHAL
import Testing
@testable import GymTimerHardware
import GymTimerSystem

@Suite struct GPIOInputWaiterTests {
    @Test func edgeAgeComesFromTheKernelTimestamp() {
        let now = Duration.seconds(1000)
        #expect(GPIOInputWaiter.age(of: .milliseconds(999_997), now: now) == .milliseconds(3))
        // Stamped by another clock (the future, or the epoch): dated now instead.
        #expect(GPIOInputWaiter.age(of: .seconds(1001), now: now) == .zero)
        #expect(GPIOInputWaiter.age(of: .seconds(1), now: now) == .zero)
    }

    @Test func waitsForTheTimeoutWithNothingToWatch() throws {
        let waiter = GPIOInputWaiter(inputs: [])
        let start = MonotonicTime.now
        #expect(try waiter.wait(timeout: .milliseconds(20)).isEmpty)
        #expect(MonotonicTime.now - start >= .milliseconds(20))
    }

    @Test func aSubMillisecondTimeoutIsKeptNotRounded() throws {
        let waiter = GPIOInputWaiter(inputs: [])
        for _ in 0..<5 {
            let start = MonotonicTime.now
            #expect(try waiter.wait(timeout: .microseconds(1500)).isEmpty)
            // Never early; the real clock is only a lower bound (a busy machine wakes us late).
            #expect(MonotonicTime.now - start >= .microseconds(1500))
        }
    }

    @Test func aStopSignalWakesTheWaitAtOnce() throws {
        let signals = try StopSignals([SIGUSR2])
        let waiter = GPIOInputWaiter(inputs: [], sources: [signals])
        #expect(!signals.stopRequested)
        kill(getpid(), SIGUSR2)
        let start = MonotonicTime.now
        #expect(try waiter.wait(timeout: .seconds(5)).isEmpty)
        #expect(MonotonicTime.now - start < .seconds(1))
        #expect(signals.stopRequested)
        #expect(signals.received == SIGUSR2)
    }

    @Test func spinWaitsAtLeastTheDelay() {
        let start = MonotonicTime.now
        MonotonicTime.spin(for: .microseconds(5))
        #expect(MonotonicTime.now - start >= .microseconds(5))
    }
}
