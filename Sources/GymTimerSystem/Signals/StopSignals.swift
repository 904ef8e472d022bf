#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GymTimerHAL

/// The write end of the stop signals' self-pipe, for the signal handler (which can capture
/// nothing and may only make async-signal-safe calls such as write(2)). Set before the
/// handler is installed and cleared after it is removed.
nonisolated(unsafe) private var stopPipeWriter: Int32 = -1

/// SIGTERM and SIGINT turned into a readable pipe, the self-pipe trick: the handler writes the
/// signal number, the waiting loop's poll wakes (it is a `PollSource`), and the program stops
/// in an orderly way (the kiosk blanks its display and releases its lines, a station says
/// `offline`, the collector finishes its step) instead of dying mid-write. The one way every
/// loop of gymtimer catches a stop; one per process.
public final class StopSignals: PollSource {
    /// The read end of the pipe.
    public let descriptor: Int32
    private let writer: Int32
    private let signals: [Int32]
    /// The first stop signal received, once one has been.
    public private(set) var received: Int32?

    /// Installs the handler for `signals` (SIGTERM and SIGINT by default) and unblocks them
    /// (a process started from a thread that blocks them, a test runner's, would never see them).
    public init(_ signals: [Int32] = [SIGTERM, SIGINT]) throws(HALError) {
        (descriptor, writer) = try SystemCall.wakeUpPipe("signal pipe")
        self.signals = signals
        stopPipeWriter = writer
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signalNumber in signals {
            sigaddset(&unblocked, signalNumber)
            signal(signalNumber) { number in
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(stopPipeWriter, &byte, 1)
                errno = saved
            }
        }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }

    deinit {
        for signalNumber in signals { signal(signalNumber, SIG_DFL) }
        if stopPipeWriter == writer { stopPipeWriter = -1 }
        close(descriptor)
        close(writer)
    }

    /// Whether a stop signal has arrived (drains the pipe first, so it is right even when the
    /// loop woke for another reason).
    public var stopRequested: Bool {
        drain()
        return received != nil
    }

    /// Reads what the handler wrote, so the next poll blocks again.
    public func drain() {
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1 {
            if received == nil { received = Int32(byte) }
        }
    }

    public var pollRequest: pollfd? { pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0) }

    public func serve(revents: Int16) { drain() }
}
