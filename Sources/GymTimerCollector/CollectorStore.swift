import GymTimerHistory

/// Where a collector keeps the records it takes: one gym's SQLite history (`HistoryStore`, the
/// default) or a chain's PostgreSQL (`PostgresRecordStore`, GymTimerCentral). The collector
/// acknowledges a record to its station only once `store` returned: what throws is sent again.
public protocol CollectorStore: AnyObject {
    /// Stores `records` in one transaction, each once by its gym and id (a record already held is
    /// skipped); returns how many were new. Throws when the batch could not be kept: none of it
    /// is acknowledged, so the broker and the stations send it again.
    func store(_ records: [CollectedRecord]) throws -> Int
}

extension HistoryStore: CollectorStore {
    /// One gym's history: every record is the gym's own, whatever `gym` says.
    public func store(_ records: [CollectedRecord]) throws -> Int {
        try store(records.map(\.workout))
    }
}
