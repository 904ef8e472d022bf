import GymTimerHistory
import GymTimerRuntime

/// The SQLite history is what the running-state store journals beside the kiosk's state: the
/// records it could not write yet travel in the journal as `StoredWorkout`s. Made here, where
/// both are seen, so the runtime links no database and the history no event loop.
extension HistoryStore: PendingHistory {
    public var hasPending: Bool { !pending.isEmpty }
}
