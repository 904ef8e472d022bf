import GymTimerCore

/// The workout history as the running-state store needs it: it takes records, keeps the ones
/// it could not write yet, and takes them back after a restart. `KioskStore` journals the
/// waiting ones with the running state, so a crash loses none. GymTimerHistory's `HistoryStore`
/// satisfies it (the conformance is in GymTimerSetup), so the runtime links no database.
public protocol PendingHistory: WorkoutHistory {
    /// A record as it waits, and as the journal keeps it.
    associatedtype Pending: Codable & Hashable & Sendable
    /// Records received but not yet written, oldest first.
    var pending: [Pending] { get }
    /// Whether any record waits (`pending` is not empty), asked on every loop wake-up: a
    /// conformance answers it on its concrete array, which the generic `KioskStore` cannot.
    var hasPending: Bool { get }
    /// Puts records an earlier process journalled back before any received since.
    func restore(_ records: [Pending])
    /// Writes the waiting records if it can; true when none is left waiting.
    @discardableResult func retryPending() -> Bool
}
