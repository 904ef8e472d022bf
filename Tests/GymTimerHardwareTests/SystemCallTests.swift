import Glibc
import GymTimerHAL
import Testing

@Suite struct SystemCallTests {
    @Test func pollTimeoutsAreKeptToTheNanosecondNeverRoundedToAMillisecond() throws {
        // nil: no timeout at all (ppoll's NULL).
        #expect(SystemCall.pollTimeSpec(nil) == nil)
        let zero = try #require(SystemCall.pollTimeSpec(.zero))
        #expect(zero.tv_sec == 0 && zero.tv_nsec == 0)
        let past = try #require(SystemCall.pollTimeSpec(.milliseconds(-5)))
        #expect(past.tv_sec == 0 && past.tv_nsec == 0)
        // Sub-millisecond stays sub-millisecond (poll(2) would have waited a whole 1 ms, or 2).
        let tiny = try #require(SystemCall.pollTimeSpec(.nanoseconds(1)))
        #expect(tiny.tv_sec == 0 && tiny.tv_nsec == 1)
        let halfMs = try #require(SystemCall.pollTimeSpec(.microseconds(1500)))
        #expect(halfMs.tv_sec == 0 && halfMs.tv_nsec == 1_500_000)
        let odd = try #require(SystemCall.pollTimeSpec(.microseconds(250_001)))
        #expect(odd.tv_sec == 0 && odd.tv_nsec == 250_001_000)
        // Huge: clamped far from overflow, however large.
        for huge in [Duration.seconds(1e12), .seconds(Int64.max), Duration(secondsComponent: Int64.max, attosecondsComponent: 999_999_999_999_999_999)] {
            let spec = try #require(SystemCall.pollTimeSpec(huge))
            #expect(spec.tv_sec == Int(SystemCall.longestTimeSpecSeconds) && spec.tv_nsec == 0)
        }
    }

    @Test func pollReturnsTheReadyDescriptorsAndIgnoresNegativeOnes() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        var fds = [pollfd(fd: -1, events: Int16(POLLIN), revents: 0), pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)]
        #expect(try SystemCall.poll(&fds, timeout: .zero, device: "test pipe") == 0)
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(try SystemCall.poll(&fds, timeout: nil, device: "test pipe") == 1)
        #expect(fds[0].revents == 0 && fds[1].revents == Int16(POLLIN))
        var closed = [pollfd(fd: 9999, events: Int16(POLLIN), revents: 0)]
        #expect(try SystemCall.poll(&closed, timeout: .zero, device: "test pipe") == 1)
        #expect(closed[0].revents == Int16(POLLNVAL))
    }

    @Test func timespecsRoundUpToTheNanosecond() {
        let zero = SystemCall.timeSpec(.milliseconds(-3))
        #expect(zero.tv_sec == 0 && zero.tv_nsec == 0)
        let exact = SystemCall.timeSpec(.seconds(2) + .nanoseconds(5))
        #expect(exact.tv_sec == 2 && exact.tv_nsec == 5)
        // A third of a nanosecond more is a whole one more: never shorter than asked.
        let fraction = SystemCall.timeSpec(Duration(secondsComponent: 0, attosecondsComponent: 7_333_333_333))
        #expect(fraction.tv_sec == 0 && fraction.tv_nsec == 8)
        let carry = SystemCall.timeSpec(Duration(secondsComponent: 1, attosecondsComponent: 999_999_999_000_000_005))
        #expect(carry.tv_sec == 2 && carry.tv_nsec == 0)
    }

    @Test func interruptedCallsAreRetriedAndOtherFailuresReturned() {
        var calls = 0
        let result = SystemCall.retryingInterrupts { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)
        calls = 0
        let failed = SystemCall.retryingInterrupts { () -> Int in
            calls += 1
            errno = EBADF
            return -1
        }
        #expect(failed == -1 && calls == 1)
    }

    /// The kernel may wake a poll 0.1 % of its timeout late (1 ms on a 1 s wait): a long wait
    /// is asked for in a slice that, even that late, ends before the deadline; a short one whole.
    @Test func aLongWaitIsSlicedSoTheKernelsSlackCannotMakeItLate() {
        for left: Duration in [.milliseconds(51), .seconds(1), .seconds(90), .seconds(3600)] {
            let slice = SystemCall.pollSlice(left)
            #expect(slice < left && slice + slice / 1000 < left, "\(left): \(slice)")
            #expect(left - slice <= left / 400, "the rest is short: \(left - slice)")
        }
        for left: Duration in [.zero, .microseconds(10), .milliseconds(20), .milliseconds(50)] {
            #expect(SystemCall.pollSlice(left) == left)
        }
    }

    /// A sliced wait still lasts its whole timeout (never less), and wakes for a ready descriptor.
    @Test func aSlicedWaitLastsItsTimeoutAndStillWakesForADescriptor() throws {
        let clock = ContinuousClock()
        var nothing: [pollfd] = []
        let start = clock.now
        try SystemCall.poll(&nothing, timeout: .milliseconds(120), device: "test")
        #expect(start.duration(to: clock.now) >= .milliseconds(120))
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        var fds = [pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)]
        #expect(try SystemCall.poll(&fds, timeout: .seconds(10), device: "test") == 1)
    }
}
