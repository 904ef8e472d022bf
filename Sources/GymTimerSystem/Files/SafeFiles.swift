import Foundation
import GymTimerCore
import GymTimerHAL
import SystemPackage

/// File operations that a planted symlink, a second writer or a power cut cannot subvert:
/// unique temporary names opened `O_EXCL|O_NOFOLLOW` beside the target, file and directory
/// synced, and corrupt files moved aside under a dated name rather than deleted.
public enum SafeFiles {
    /// Replaces `path` with `bytes` atomically: a power cut leaves the old file or the new one.
    public static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o644) throws(SafeFileError) {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var fd: Int32 = -1
        var temporary = ""
        for _ in 0..<16 {
            temporary = (directory.isEmpty ? "" : directory + "/") + ".\(name).\(UInt64.random(in: 0...UInt64.max)).tmp"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw .failed(path: temporary, reason: Errno.last.text) }
        if let failure = writeAll(fd, bytes) {
            close(fd)
            unlink(temporary)
            throw .failed(path: path, reason: failure.text)
        }
        let synced = fsync(fd) == 0
        let reason = Errno.last.text
        close(fd)
        guard synced else {
            unlink(temporary)
            throw .failed(path: path, reason: reason)
        }
        guard rename(temporary, path) == 0 else {
            let reason = Errno.last.text
            unlink(temporary)
            throw .failed(path: path, reason: reason)
        }
        syncDirectory(of: path)
    }

    /// Writes all of `bytes` to `fd`, retrying interruptions and partial writes; the failure,
    /// nil when all were written (a write that takes nothing is an I/O error).
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Errno? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? .last : .ioError }
            offset += written
        }
        return nil
    }

    /// Syncs the directory holding `path`, so a rename in it survives a power cut.
    public static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Where a corrupt `path` is moved: `PATH.corrupt-YYYYMMDD-HHMMSS` (UTC), unique.
    public static func asideName(for path: String, at date: Date = WallClock.system.date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let base = "\(path).corrupt-\(formatter.string(from: date))"
        var candidate = base
        var index = 1
        while access(candidate, F_OK) == 0 {
            candidate = "\(base).\(index)"
            index += 1
        }
        return candidate
    }
}

/// A file operation that failed, naming the file and the system's reason.
public enum SafeFileError: Error, CustomStringConvertible {
    case failed(path: String, reason: String)

    public var description: String {
        switch self {
        case .failed(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}
