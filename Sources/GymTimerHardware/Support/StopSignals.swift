import Glibc
import GymTimerHAL
import Synchronization

/// The write end of the stop signals' self-pipe, for the signal handler (which can capture
/// nothing and may only make async-signal-safe calls such as write(2)).
private let stopPipeWriter = Atomic<Int32>(-1)

/// SIGTERM and SIGINT turned into a readable pipe, the self-pipe trick: the handler writes the
/// signal number, the event loop's ppoll wakes, and the kiosk shuts down in an orderly way
/// (display blanked, buzzer off, lines released) instead of dying mid-write. One per process.
public final class StopSignals: PollWakeup {
    public let descriptor: Int32
    private let writer: Int32
    private let signals: [Int32]
    /// The first stop signal received, once one has been.
    public private(set) var received: Int32?

    /// Installs the handler for `signals` (SIGTERM and SIGINT by default).
    public init(_ signals: [Int32] = [SIGTERM, SIGINT]) throws(HALError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .io(device: "signal pipe", operation: "pipe", errno: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        descriptor = ends[0]
        writer = ends[1]
        self.signals = signals
        stopPipeWriter.store(writer, ordering: .sequentiallyConsistent)
        for signalNumber in signals {
            signal(signalNumber) { number in
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(stopPipeWriter.load(ordering: .sequentiallyConsistent), &byte, 1)
                errno = saved
            }
        }
    }

    deinit {
        for signalNumber in signals { signal(signalNumber, SIG_DFL) }
        stopPipeWriter.store(-1, ordering: .sequentiallyConsistent)
        close(descriptor)
        close(writer)
    }

    /// Whether a stop signal has arrived (drains the pipe first, so it is right even when the
    /// loop woke for another reason).
    public var stopRequested: Bool {
        drain()
        return received != nil
    }

    public func drain() {
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1 {
            if received == nil { received = Int32(byte) }
        }
    }
}
