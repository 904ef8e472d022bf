import Synchronization

/// A clock whose time moves only when told to: the simulator and the tests run a 5-minute rest
/// in microseconds, and the same script always sees the same instants.
public final class VirtualClock: Clock, Sendable {
    /// A point in virtual time: the duration since the clock was made.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        public var offset: Duration
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Moves time forward to `instant` (never backward) and wakes the sleepers it reaches.
    public func advance(to instant: Instant) {
        let due: [Sleeper] = state.withLock { state in
            guard instant > state.now else { return [] }
            state.now = instant
            let due = state.sleepers.filter { $0.deadline <= instant }
            state.sleepers.removeAll { $0.deadline <= instant }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves time forward by `duration`.
    public func advance(by duration: Duration) { advance(to: now.advanced(by: duration)) }

    /// Suspends until virtual time reaches `deadline` through `advance`.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if deadline <= state.now { return true }
                state.sleepers.append(Sleeper(deadline: deadline, continuation: continuation))
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
