import Glibc
import GymTimerHAL
import Testing

@Suite struct SystemCallTests {
    @Test func pollTimeoutsRoundUpSoTheLoopNeverWakesEarly() {
        #expect(SystemCall.pollMilliseconds(nil) == -1)
        #expect(SystemCall.pollMilliseconds(.zero) == 0)
        #expect(SystemCall.pollMilliseconds(.milliseconds(-5)) == 0)
        #expect(SystemCall.pollMilliseconds(.nanoseconds(1)) == 1)
        #expect(SystemCall.pollMilliseconds(.milliseconds(250)) == 250)
        #expect(SystemCall.pollMilliseconds(.microseconds(250_001)) == 251)
        #expect(SystemCall.pollMilliseconds(.seconds(1e9)) == Int32.max)
        #expect(SystemCall.pollMilliseconds(.seconds(Int64.max)) == Int32.max)
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
}
