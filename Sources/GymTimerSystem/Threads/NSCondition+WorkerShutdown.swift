import Foundation

/// The end of a driver's worker thread, as the mailboxes that talk to one (the sound player's,
/// the card reader's) each had it word for word: the flags live beside the mailbox's other
/// state under the same condition, so these take them as closures called with the lock held.
extension NSCondition {
    /// With the lock held: `close()` (the worker's flag to stop), every waiter woken, then a
    /// wait of up to `limit` for `isFinished()`. Returns whether the worker finished in time.
    public func shutDownWorker(waitingAtMost limit: Duration, close: () -> Void, isFinished: () -> Bool) -> Bool {
        lock()
        defer { unlock() }
        close()
        broadcast()
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !isFinished() {
            if !wait(until: deadline) { return isFinished() }
        }
        return true
    }

    /// With the lock held: `change()` (the worker's word that it ended), every waiter woken.
    public func broadcast(after change: () -> Void) {
        lock()
        defer { unlock() }
        change()
        broadcast()
    }
}
