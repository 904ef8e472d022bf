extension HistorySettings {
    /// Reads `[history]`.
    static func read(from reader: TOMLReader) -> HistorySettings {
        HistorySettings(path: reader.string("path", default: HistorySettings().path))
    }
}
