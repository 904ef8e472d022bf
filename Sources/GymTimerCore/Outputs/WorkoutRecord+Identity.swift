extension WorkoutRecord {
    /// A stable identity: kind and start moment on the kiosk's timeline, e.g. `rest@120000000000`.
    ///
    /// A record replayed after a crash has the same id, so the history stores it once. Derived,
    /// not stored, so equality and the Codable form stay as they were.
    public var id: String { "\(kind.rawValue)@\((endedAt - duration).nanoseconds)" }
}
