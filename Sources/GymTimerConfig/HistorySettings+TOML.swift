import Foundation

extension HistorySettings {
    /// Reads `[history]`; a path that is a directory is refused (the database is a file in one).
    static func read(from reader: TOMLReader) -> HistorySettings {
        let path = reader.string("path", default: HistorySettings().path)
        var isDirectory: ObjCBool = false
        if let raw = reader.value("path"), FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
           isDirectory.boolValue {
            reader.report("path", raw, "is a directory; give the database file's path in it, like \"\(path)/history.sqlite\"")
        }
        return HistorySettings(path: path)
    }
}
