import GymTimerCore

/// One loop in virtual time for fleet ends a test hosts itself (collectors, bare stations,
/// clients of an `InMemoryBroker`): time moves only to the earliest deadline of its drivers,
/// so waiting for an event costs no real time, and a quiet window is exactly as long as asked
/// (what happened in it is what the broker and the drivers saw, not what a sleep happened to catch).
final class VirtualLoop {
    /// The loop's timeline: give `{ loop.now }` to every driver as its `now`.
    private(set) var now = Moment.origin
    var drivers: [any TimedDriver] = []

    /// Fires what is due, one instant at a time, until virtual time `limit` (the clock then
    /// stands at `limit`) or until `stop` holds; says whether `stop` held.
    @discardableResult
    func run(until limit: Moment, stoppingWhen stop: () -> Bool = { false }) -> Bool {
        var spins = 0
        while !stop() {
            let next = drivers.compactMap(\.nextDeadline).min() ?? limit + .seconds(1)
            guard next <= limit else {
                now = limit
                return stop()
            }
            spins = next <= now ? spins + 1 : 0
            // A driver that stays due after firing would spin here forever: stop it loudly.
            precondition(spins < 100_000, "a driver stays due at \(now)")
            now = max(now, next)
            for driver in drivers where (driver.nextDeadline ?? limit + .seconds(1)) <= now { driver.fire(at: now) }
        }
        return true
    }

    /// Runs `duration` of virtual time (everything due in it fires).
    func run(for duration: Duration) {
        run(until: now + duration)
    }

    /// Runs until `done` holds, for at most `bound` of virtual time; whether it held.
    @discardableResult
    func run(upTo bound: Duration = .seconds(600), until done: () -> Bool) -> Bool {
        run(until: now + bound, stoppingWhen: done)
    }
}
