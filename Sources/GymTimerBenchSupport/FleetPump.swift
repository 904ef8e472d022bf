#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GymTimerCollector
import GymTimerStationLink

/// Stations' and a collector's loops run by hand in real time, as their processes run them:
/// for the bench's drills and the tests that put several fleet ends in one process (a kiosk
/// hosts its station in its own loop instead).
public enum FleetPump {
    /// Polls the stations' sockets, serves what is ready, fires what is due and steps the
    /// collector, until `done` holds or `seconds` have passed; says whether `done` held.
    @discardableResult
    public static func drive(_ stations: [FleetStation], _ collector: FleetCollector?, seconds: Double, until done: () -> Bool) -> Bool {
        let end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            if done() { return true }
            var fds = stations.map { $0.pollRequest ?? pollfd(fd: -1, events: 0, revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 5)
            for (index, station) in stations.enumerated() {
                if fds[index].fd >= 0, fds[index].revents != 0 { station.serve(revents: fds[index].revents) }
                if let due = station.nextDeadline, due <= station.moment { station.fire(at: station.moment) }
            }
            collector?.step(timeout: .milliseconds(5))
        }
        return done()
    }
}
