#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GymTimerCore
import GymTimerHAL
import SystemPackage

/// The file that holds the gym's card key (`[athletes] card_key`, `--card-key`): the key's hex on
/// its first line, readable by the gymtimer user and nobody else on the machine. Read without
/// following a link in its place; one open to every local user is refused, since whoever reads it
/// can test a UID they learnt against the pseudonyms (docs/security.md).
public enum CardKeyFile {
    /// Why the key file cannot be used, saying what to do.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public let path: String
        public let detail: String

        public init(path: String, detail: String) {
            self.path = path
            self.detail = detail
        }

        public var description: String {
            "card key \(path): \(detail) (the gym's card key, 32 bytes of hex on one line, the same on every station and server of the gym; docs/security.md)"
        }
    }

    /// The most a key file may hold, in bytes.
    static let maxBytes = 1024

    /// The key in the file at `path`.
    public static func read(_ path: String) throws(Problem) -> CardKey {
        let fd = SystemCall.retryingInterrupts { open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else {
            let error = Errno.last
            throw Problem(path: path, detail: error == .tooManySymbolicLinkLevels ? "is a link (give the file itself)" : "cannot be read: \(error.text)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Problem(path: path, detail: "cannot be read: \(Errno.last.text)") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw Problem(path: path, detail: "is not a regular file") }
        guard info.st_mode & 0o007 == 0 else {
            throw Problem(path: path, detail: "is readable by every local user (chmod 0640 it, owned by root:gymtimer, or 0600)")
        }
        guard info.st_size <= maxBytes else { throw Problem(path: path, detail: "is \(info.st_size) bytes, not a key") }
        var bytes = [UInt8](repeating: 0, count: maxBytes)
        let count = bytes.withUnsafeMutableBytes { buffer in SystemCall.retryingInterrupts { Glibc.read(fd, buffer.baseAddress, maxBytes) } }
        guard count >= 0 else { throw Problem(path: path, detail: "cannot be read: \(Errno.last.text)") }
        guard let text = String(validating: bytes.prefix(count), as: UTF8.self), let key = CardKey(text: text) else {
            throw Problem(path: path, detail: "does not hold a key (16 to 64 bytes of hex on its first line)")
        }
        return key
    }

    /// The key in the file at `path`, a new one written there first (0600, never through a link)
    /// when there is no file: what a station that keeps its key in its data directory does at its
    /// first start. `made` is true when the key is new.
    public static func readOrMake(_ path: String) throws(Problem) -> (key: CardKey, made: Bool) {
        let key = CardKey.generate()
        let fd = SystemCall.retryingInterrupts { open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard fd >= 0 else {
            guard Errno.last == .fileExists else { throw Problem(path: path, detail: "cannot be made: \(Errno.last.text)") }
            return (try read(path), false)
        }
        let failure = SafeFiles.writeAll(fd, Array(key.fileText.utf8))
        let synced = failure == nil && fsync(fd) == 0
        close(fd)
        guard synced else {
            unlink(path)
            throw Problem(path: path, detail: "cannot be written: \((failure ?? .last).text)")
        }
        SafeFiles.syncDirectory(of: path)
        return (key, true)
    }
}
