import Foundation
import Glibc

extension MQTTClient {
    /// Runs the client's network loop by itself — poll its socket, read, write, keep alive —
    /// for up to `seconds`, or until `done` holds for the events so far, and returns them. For
    /// short-lived tools (`fleet status`, the benchmark's commander); a kiosk polls the socket in
    /// its own loop instead.
    public func pump(for seconds: Double, until done: ([MQTTEvent]) -> Bool) -> [MQTTEvent] {
        var events: [MQTTEvent] = []
        // Elapsed time, on the monotonic clock (a step of the wall clock does not move it),
        // compared as seconds so that any `seconds` (an unbounded --wait) is safe.
        let start = ContinuousClock.now
        func left() -> Double { seconds - (ContinuousClock.now - start) / .seconds(1) }
        while !done(events), left() > 0 {
            let wait = Int32(max(1, min(100, left() * 1000)))
            var fds = [pollfd(fd: socket, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0)]
            _ = poll(&fds, 1, wait)
            events += takeEvents()
            if fds[0].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 { events += readable() }
            if fds[0].revents & Int16(POLLOUT) != 0 || wantsWrite { events += writable() }
            events += maintain()
        }
        return events
    }
}
