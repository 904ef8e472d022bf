#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GymTimerHAL
import SystemPackage

/// A directory opened once without following a link in its place (`O_DIRECTORY|O_NOFOLLOW`),
/// whose files are then reached only relative to that descriptor (`openat`, `fstatat`,
/// `renameat`, `unlinkat`, never following a link): a process running as root in a directory
/// that another user owns (the upgrade agent in the kiosk's folder) writes nothing outside it,
/// whatever links that user plants in it or in its place.
public final class DirectoryHandle {
    /// The directory's path, for messages only: every operation goes through `descriptor`.
    public let path: String
    public let descriptor: Int32
    /// Whether `open(_:creating:)` made the directory.
    public let created: Bool

    private init(path: String, descriptor: Int32, created: Bool) {
        self.path = path
        self.descriptor = descriptor
        self.created = created
    }

    deinit { close(descriptor) }

    /// Opens the directory at `path`, its parent as the path names it and its last component
    /// never through a link. `creating`: the mode of a directory made when there is none (set
    /// exactly, whatever the umask). Fails with ELOOP when the last component is a link,
    /// ENOTDIR when it is something else.
    public static func open(_ path: String, creating mode: mode_t? = nil) throws(DirectoryError) -> DirectoryHandle {
        let parentPath = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let parent = SystemCall.retryingInterrupts { Glibc.open(parentPath.isEmpty ? "." : parentPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard parent >= 0 else { throw DirectoryError(path: parentPath, errno: .last) }
        defer { close(parent) }
        var created = false
        if mode != nil {
            if mkdirat(parent, name, 0o700) == 0 {
                created = true
            } else if errno != EEXIST {
                throw DirectoryError(path: path, errno: .last)
            }
        }
        let fd = SystemCall.retryingInterrupts { openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else {
            var failure = Errno.last
            // Linux says ENOTDIR for a link too (O_DIRECTORY is checked first): tell them apart.
            var info = stat()
            if failure == .notDirectory, fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFLNK {
                failure = .tooManySymbolicLinkLevels
            }
            throw DirectoryError(path: path, errno: failure)
        }
        let directory = DirectoryHandle(path: path, descriptor: fd, created: created)
        // Made 0700 and only then opened to its final mode: nobody writes in it before.
        if created, let mode, fchmod(fd, mode) != 0 { throw DirectoryError(path: path, errno: .last) }
        return directory
    }

    /// The directory's own owner and mode.
    public func status() throws(DirectoryError) -> stat {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw DirectoryError(path: path, errno: .last) }
        return info
    }

    /// What `name` in the directory is, not following a link (a link reads as one, `S_IFLNK`);
    /// nil when there is none.
    public func status(of name: String) throws(DirectoryError) -> stat? {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw DirectoryError(path: path + "/" + name, errno: .last)
        }
        return info
    }

    /// Replaces `name` with `bytes` atomically, with exactly `mode` whatever the umask: written
    /// under a unique temporary name (`O_EXCL|O_NOFOLLOW`), synced, renamed over `name` (a link
    /// there is replaced, never followed), the directory synced.
    public func replace(_ name: String, with bytes: [UInt8], mode: mode_t) throws(DirectoryError) {
        var fd: Int32 = -1
        var temporary = ""
        for _ in 0..<16 {
            temporary = ".\(name).\(UInt64.random(in: 0...UInt64.max)).tmp"
            fd = SystemCall.retryingInterrupts { openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw DirectoryError(path: path + "/" + temporary, errno: .last) }
        let failure: Errno? = {
            if let reason = SafeFiles.writeAll(fd, bytes) { return reason }
            if fchmod(fd, mode) != 0 || fsync(fd) != 0 { return .last }
            return nil
        }()
        close(fd)
        if let failure {
            unlinkat(descriptor, temporary, 0)
            throw DirectoryError(path: path + "/" + name, errno: failure)
        }
        guard renameat(descriptor, temporary, descriptor, name) == 0 else {
            let failure = Errno.last
            unlinkat(descriptor, temporary, 0)
            throw DirectoryError(path: path + "/" + name, errno: failure)
        }
        fsync(descriptor)
    }

    /// Removes `name` (a link itself, never what it points to); none there is no failure.
    public func remove(_ name: String) throws(DirectoryError) {
        guard unlinkat(descriptor, name, 0) == 0 || errno == ENOENT else { throw DirectoryError(path: path + "/" + name, errno: .last) }
        fsync(descriptor)
    }
}

/// A directory operation that failed: the file and the system's reason.
public struct DirectoryError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var errno: Errno

    public init(path: String, errno: Errno) {
        self.path = path
        self.errno = errno
    }

    public var description: String { "\(path): \(errno.text)" }
}
