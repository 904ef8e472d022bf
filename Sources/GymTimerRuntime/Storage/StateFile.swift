import Foundation

/// The kiosk's running state on disk, written atomically: a new version goes to a temporary
/// file that is flushed and then renamed over the old one, so a power cut leaves either the old
/// state or the new one, never half of each.
public final class StateFile<State: Codable & Equatable> {
    public let path: String
    private var lastWritten: State?

    public init(path: String) {
        self.path = path
    }

    /// What was stored, nil when nothing is. A file that cannot be read as state is moved aside
    /// (to `PATH.corrupt`) and reported, so the kiosk starts fresh instead of refusing to start.
    public func load() throws(StateFileError) -> State? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let state = try JSONDecoder().decode(State.self, from: data)
            lastWritten = state
            return state
        } catch {
            let aside = path + ".corrupt"
            try? FileManager.default.removeItem(atPath: aside)
            try? FileManager.default.moveItem(atPath: path, toPath: aside)
            throw .unreadable(path: path, movedTo: aside, reason: "\(error)")
        }
    }

    /// Stores `state` unless it is what was last stored. Returns whether it wrote.
    @discardableResult
    public func save(_ state: State) throws(StateFileError) -> Bool {
        guard state != lastWritten else { return false }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(state) } catch { throw .unwritable(path: path, reason: "\(error)") }
        let temporary = path + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .unwritable(path: path, reason: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let flushed = fsync(fd) == 0
        let writeErrno = errno
        close(fd)
        guard written == data.count, flushed else {
            unlink(temporary)
            throw .unwritable(path: path, reason: written < 0 || !flushed ? String(cString: strerror(writeErrno)) : "short write (disk full?)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .unwritable(path: path, reason: reason)
        }
        lastWritten = state
        return true
    }
}

/// Why the running state could not be read or written.
public enum StateFileError: Error, CustomStringConvertible {
    case unreadable(path: String, movedTo: String, reason: String)
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let aside, let reason):
            return "stored state \(path) is unreadable (\(reason)); moved to \(aside), starting fresh"
        case .unwritable(let path, let reason):
            return "cannot save the running state to \(path): \(reason)"
        }
    }
}
