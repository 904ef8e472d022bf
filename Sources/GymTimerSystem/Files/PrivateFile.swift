#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GymTimerHAL
import SystemPackage

/// A file that holds members' data (a database, the kiosk's journal), kept from other local
/// users whatever the umask: made empty with at most `mode` (0600, or 0640 where the owner's
/// group reads it) before SQLite or the journal opens it — the umask can only take bits away,
/// and SQLite gives its side files (`-journal`, `-wal`, `-shm`) the main file's mode — and an
/// existing one, or a side file, that others may read or write loses those bits once it has
/// opened as what it should be, said in the log. Group bits of an existing file are left: who is in the group is the owner's choice.
public enum PrivateFile {
    /// SQLite's side files of a database: the rollback journal, the write-ahead log, its index.
    public static let sqliteSideFiles = ["-journal", "-wal", "-shm"]

    /// Makes `path` empty with at most `mode` (`O_EXCL|O_NOFOLLOW`) if there is none, before
    /// SQLite or the journal opens it. A file it cannot make is left for its opener, which
    /// says why.
    public static func create(_ path: String, mode: mode_t) {
        let fd = SystemCall.retryingInterrupts { open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode) }
        if fd >= 0 { close(fd) }
    }

    /// Takes others' access from `path` and from `path + suffix` for each of `sideFiles` that
    /// exists, once its opener has found it is what it should be (a history, a journal): a file
    /// given by mistake is left as it was. Returns the log's line when it tightened any.
    public static func closeToOthers(_ path: String, sideFiles: [String] = []) -> String? {
        let tightened = ([path] + sideFiles.map { path + $0 }).compactMap(closeFileToOthers)
        guard !tightened.isEmpty else { return nil }
        return "\(tightened.joined(separator: ", ")): open to every local user, now closed to them (it holds members' data)"
    }

    /// Takes others' bits from the regular file at `path` (never through a link) when it has
    /// any and is ours; "PATH (0644 → 0640)" then, else nil.
    private static func closeFileToOthers(_ path: String) -> String? {
        let fd = SystemCall.retryingInterrupts { open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(), info.st_mode & 0o007 != 0 else { return nil }
        let before = info.st_mode & 0o7777
        let after = before & ~0o007
        guard fchmod(fd, after) == 0 else { return nil }
        return "\(path) (\(octal(before)) → \(octal(after)))"
    }

    private static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
