import Testing
@testable import GymTimerHardware

@Suite struct ClockSynchronisationTests {
    @Test func anNTPDisciplinedClockReportsItsFiguresInMilliseconds() {
        // chrony's usual state: PLL on (0x0001), microsecond offsets, TIME_OK.
        let clock = ClockSynchronisation(state: 0, status: 0x0001, offset: -420, estimatedError: 800, maximumError: 12_300)
        #expect(clock == ClockSynchronisation(synchronised: true, offset: -0.000420, estimatedError: 0.0008, maximumError: 0.0123))
        #expect(clock.report == "clock: synchronised, offset -0.420 ms, estimated error ±0.800 ms, at most 12.300 ms")
    }

    @Test func nanosecondOffsetsAreReadAsNanoseconds() {
        let clock = ClockSynchronisation(state: 0, status: 0x2001, offset: 1_500_000, estimatedError: 50, maximumError: 1000)
        #expect(clock.offset == 0.0015)
        #expect(clock.report.hasPrefix("clock: synchronised, offset +1.500 ms"))
    }

    @Test func anUnsynchronisedClockSaysWhatToDo() {
        for (state, status) in [(Int32(5), Int32(0x0001)), (0, 0x0041)] {
            let clock = ClockSynchronisation(state: state, status: status, offset: 0, estimatedError: 0, maximumError: 16_000_000)
            #expect(!clock.synchronised)
            #expect(clock.report.hasPrefix("clock: not synchronised"))
            #expect(clock.report.contains("chrony"))
        }
    }

    @Test func thisMachinesClockIsReadFromTheKernel() throws {
        // Whatever this machine's NTP state, the kernel answers and the line says one or the other.
        let clock = try ClockSynchronisation.current()
        #expect(clock.maximumError >= 0)
        #expect(clock.report.hasPrefix(clock.synchronised ? "clock: synchronised, offset " : "clock: not synchronised"))
    }
}
