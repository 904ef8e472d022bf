import Foundation
import GymTimerHAL
import SystemPackage

/// An exclusive `flock` on a data directory's `lock` file, held for the life of the process,
/// so two controllers never write one directory's state and history at once. The holder's PID
/// is written into the file for the refusal message.
public final class DataDirectoryLock {
    public let path: String
    private let descriptor: Int32

    /// Takes the lock, or throws naming the process that holds it.
    public init(directory: String) throws(DataDirectoryLockError) {
        path = directory + "/lock"
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotLock(path: path, reason: Errno.last.text) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            var bytes = [UInt8](repeating: 0, count: 32)
            let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 32, 0) }
            close(fd)
            let holder = Int32(String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines))
            throw .held(directory: directory, pid: holder)
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        descriptor = fd
    }

    deinit { close(descriptor) }
}

/// Why a data directory could not be locked.
public enum DataDirectoryLockError: Error, CustomStringConvertible {
    case held(directory: String, pid: Int32?)
    case cannotLock(path: String, reason: String)

    public var description: String {
        switch self {
        case .held(let directory, let pid):
            let holder = pid.map { "gymtimer process \($0)" } ?? "another gymtimer process"
            return "\(directory) is in use by \(holder); stop it first (only one controller may use a data directory)"
        case .cannotLock(let path, let reason):
            return "cannot lock \(path): \(reason)"
        }
    }
}
