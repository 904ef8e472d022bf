#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GymTimerSystem
import SystemPackage

/// The upgrade folder as the agent (root) holds it for one run. The kiosk's user owns the data
/// directory it is in, so it could put a link or anything else in the folder's place or in
/// place of a file in it: the folder is opened without following a link, made if missing
/// (owned by the data directory's owner, the kiosk's user, so that it can write `request`),
/// refused unless it is a real folder owned by that user or root and writable by no one else,
/// its two files refused unless each is absent or a regular file owned by one of them, and
/// every write and removal done relative to the open folder, never through a link: the agent
/// writes nothing outside it.
public final class UpgradeFolder {
    public static let statusName = "status.json"
    public static let requestName = "request"

    public let path: String
    private let directory: DirectoryHandle

    private init(path: String, directory: DirectoryHandle) {
        self.path = path
        self.directory = directory
    }

    /// Opens (making it if missing) and checks the folder at `path`; a one-line `UpgradeError`
    /// saying what is wrong and what to do, with nothing written, when it is not as expected.
    public static func open(_ path: String) throws(UpgradeError) -> UpgradeFolder {
        let step = "opening the upgrade folder \(path)"
        let dataDirectory = (path as NSString).deletingLastPathComponent
        var parent = stat()
        guard stat(dataDirectory.isEmpty ? "." : dataDirectory, &parent) == 0 else {
            throw UpgradeError(step, "no data directory \(dataDirectory): has the kiosk ever run here?")
        }
        let directory: DirectoryHandle
        do {
            directory = try DirectoryHandle.open(path, creating: 0o755)
        } catch {
            switch error.errno {
            case .tooManySymbolicLinkLevels:
                throw UpgradeError(step, "it is a symbolic link, not a folder: nothing written (remove it; the next run makes the folder)")
            case .notDirectory:
                throw UpgradeError(step, "it is not a folder: nothing written (remove it; the next run makes the folder)")
            default:
                throw UpgradeError(step, "\(error)")
            }
        }
        if directory.created, geteuid() == 0 {
            // The kiosk's user, so that the kiosk can write its request into it.
            _ = fchown(directory.descriptor, parent.st_uid, parent.st_gid)
        }
        let kiosk = parent.st_uid
        let info: stat
        do {
            info = try directory.status()
        } catch {
            throw UpgradeError(step, "\(error)")
        }
        guard info.st_uid == 0 || info.st_uid == kiosk else {
            throw UpgradeError(step, "it belongs to user \(info.st_uid), neither root nor the kiosk's user \(kiosk) (the data directory's owner): nothing written (sudo chown \(kiosk) \(path))")
        }
        guard info.st_mode & 0o022 == 0 else {
            throw UpgradeError(step, "others may write in it (mode \(String(info.st_mode & 0o7777, radix: 8))): nothing written (sudo chmod go-w \(path))")
        }
        for name in [statusName, requestName] {
            let entry: stat?
            do {
                entry = try directory.status(of: name)
            } catch {
                throw UpgradeError(step, "\(error)")
            }
            guard let entry else { continue }
            let file = path + "/" + name
            guard entry.st_mode & S_IFMT == S_IFREG else {
                let kind = entry.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a regular file"
                throw UpgradeError(step, "\(file) is \(kind): nothing written (remove it)")
            }
            guard entry.st_uid == 0 || entry.st_uid == kiosk else {
                throw UpgradeError(step, "\(file) belongs to user \(entry.st_uid), neither root nor the kiosk's user \(kiosk): nothing written (remove it)")
            }
        }
        return UpgradeFolder(path: path, directory: directory)
    }

    /// Whether the kiosk asked for an upgrade (a regular `request` in the folder).
    public var requested: Bool {
        guard let entry = try? directory.status(of: Self.requestName) else { return false }
        return entry.st_mode & S_IFMT == S_IFREG
    }

    /// What the agent found, for the kiosk (0644: the kiosk's user reads it), replacing
    /// whatever is at `status.json` without following it.
    public func write(_ status: UpgradeStatus) throws(UpgradeError) {
        do {
            try directory.replace(Self.statusName, with: Array((status.json + "\n").utf8), mode: 0o644)
        } catch {
            throw UpgradeError("writing \(path)/\(Self.statusName)", "\(error.errno.text)")
        }
    }

    /// The asked-for upgrade is done (or there was nothing newer): `request` removed (a link
    /// there is removed itself, what it points to is not touched).
    public func finishRequest() throws(UpgradeError) {
        do {
            try directory.remove(Self.requestName)
        } catch {
            throw UpgradeError("removing \(path)/\(Self.requestName)", "\(error.errno.text)")
        }
    }
}
