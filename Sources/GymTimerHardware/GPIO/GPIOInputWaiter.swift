import Glibc
import GymTimerHAL

/// The event loop's one blocking point on hardware: poll(2) on every input line's edge-event
/// descriptor and on the extra `PollSource`s (the stop signals' pipe, the fleet station's
/// socket), with exactly the timeout the loop
/// asks for (ppoll, to the nanosecond). No thread and no sleep loop: the process sleeps in the kernel until an edge, a
/// signal or the deadline.
///
/// Each edge's `age` comes from the kernel's CLOCK_MONOTONIC timestamp, so an edge is dated
/// when it happened, not when the loop got round to it.
public final class GPIOInputWaiter: InputWaiter {
    /// An edge older than this (or dated in the future) has a timestamp from another clock (a
    /// pre-5.7 kernel stamped v1 events with CLOCK_REALTIME): it is dated "now" instead.
    static let plausibleAge = Duration.seconds(10)

    private let inputs: [any GPIOEventInput]
    private let sources: [any PollSource]

    public init(inputs: [any GPIOEventInput], sources: [any PollSource] = []) {
        self.inputs = inputs
        self.sources = sources
    }

    /// Returns the pending edges in the order they happened, or none when the timeout elapsed
    /// or a source was served (the loop then checks why it woke). The timeout is kept to the
    /// nanosecond (`SystemCall.poll`), never shorter.
    public func wait(timeout: Duration?) throws(HALError) -> [InputEdge] {
        var fds = inputs.map { pollfd(fd: $0.eventDescriptor, events: Int16(POLLIN), revents: 0) }
        fds += sources.pollRequests
        guard try SystemCall.poll(&fds, timeout: timeout, device: "GPIO inputs") > 0 else { return [] }

        sources.serve(fds[inputs.count...])
        var events: [GPIOEvent] = []
        for (index, input) in inputs.enumerated() {
            let revents = Int32(fds[index].revents)
            if revents & Int32(POLLIN) != 0 {
                events += try input.readEvents()
            } else if revents & Int32(POLLERR | POLLHUP | POLLNVAL) != 0 {
                throw .io(device: input.location, operation: "poll edge events", errno: EIO)
            }
        }
        let now = MonotonicTime.now
        return events.sorted { $0.timestamp < $1.timestamp }.map { event in
            InputEdge(line: event.line, active: event.active, age: Self.age(of: event.timestamp, now: now))
        }
    }

    /// How long before `now` an event stamped `timestamp` happened; zero if implausible.
    static func age(of timestamp: Duration, now: Duration) -> Duration {
        let age = now - timestamp
        return age < .zero || age > plausibleAge ? .zero : age
    }
}
