#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GymTimerHAL
import Testing
@testable import GymTimerSimulation

/// Extra `PollSource`s of the terminal's waiter: a ready one is served and the wait returns,
/// so the loop looks at the kiosk; one with nothing to poll is left out.
@Suite struct PollSourceWaitTests {
    /// A pipe as a source: readable once a byte is written; `serve` reads it and counts.
    final class PipeSource: PollSource {
        let readEnd: Int32
        let writeEnd: Int32
        var served: [Int16] = []
        var silent = false

        init() {
            var fds: [Int32] = [0, 0]
            precondition(pipe(&fds) == 0)
            (readEnd, writeEnd) = (fds[0], fds[1])
        }

        deinit {
            close(readEnd)
            close(writeEnd)
        }

        var pollRequest: pollfd? { silent ? nil : pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0) }

        func serve(revents: Int16) {
            served.append(revents)
            var byte: UInt8 = 0
            _ = read(readEnd, &byte, 1)
        }

        func poke() {
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
    }

    @Test func aReadySourceIsServedAndTheWaitReturns() throws {
        var keys: [Int32] = [0, 0]
        #expect(pipe(&keys) == 0)
        defer { close(keys[0]); close(keys[1]) }
        let source = PipeSource()
        let idle = PipeSource()
        let inputs = TerminalInputs(fd: keys[0], now: { .zero })
        inputs.sources = [idle, source]
        source.poke()
        // No timeout at all: only the source can end this wait.
        #expect(try inputs.wait(timeout: nil).isEmpty)
        #expect(source.served == [Int16(POLLIN)])
        #expect(idle.served.isEmpty)
        // Served, so the next wait blocks again: it times out.
        #expect(try inputs.wait(timeout: .zero).isEmpty)
        #expect(source.served.count == 1)
    }

    @Test func aSourceWithNothingToPollIsLeftOut() throws {
        let source = PipeSource()
        source.silent = true
        source.poke()
        var fds = [any PollSource]([source]).pollRequests
        #expect(fds.count == 1 && fds[0].fd == -1)
        #expect(try SystemCall.poll(&fds, timeout: .zero, device: "test") == 0)
        #expect(![any PollSource]([source]).serve(fds[...]))
        #expect(source.served.isEmpty)
    }
}
