import Glibc

nonisolated(unsafe) private var stopRequested: sig_atomic_t = 0

/// SIGTERM and SIGINT as a flag a loop that wakes at least every second checks (`collect`):
/// the loop finishes what it was doing and stops cleanly.
final class StopFlag {
    init() {
        var stops = sigset_t()
        sigemptyset(&stops)
        sigaddset(&stops, SIGTERM)
        sigaddset(&stops, SIGINT)
        // A process started from a thread that blocks them would otherwise never see them.
        pthread_sigmask(SIG_UNBLOCK, &stops, nil)
        signal(SIGTERM) { _ in stopRequested = 1 }
        signal(SIGINT) { _ in stopRequested = 1 }
    }

    var isSet: Bool { stopRequested != 0 }
}
