import Foundation
import GRDB
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerHistory
import GymTimerSystem
import GymTimerTestSupport
import Testing

/// Every database and journal is kept from other local users whatever the umask (they hold
/// members' names and cards): made under umask 022, the usual one outside the packaged units
/// (a clone, kiosk.sh, a hand-run collector), the history is 0640, the outbox and the journal
/// 0600, and SQLite's side files (`-journal`, `-wal`, `-shm`) take the main file's mode, all
/// read with stat on real files; an existing file others could open is closed to them on open,
/// and the log says so.
@Suite(.serialized) struct DataFileModeTests {
    let directory = testDirectory("data-file-modes")

    /// Runs `body` under umask 022, the umask restored after.
    func underUsualUmask<T>(_ body: () throws -> T) rethrows -> T {
        let saved = umask(0o022)
        defer { umask(saved) }
        return try body()
    }

    func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// The side files SQLite makes for `path` while a connection of its own writes: the
    /// rollback journal mid-transaction, then the write-ahead log and its index in WAL mode.
    func sideFileModes(of path: String) throws -> [String: mode_t?] {
        let probe = try DatabaseQueue(path: path)
        var modes: [String: mode_t?] = [:]
        try probe.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS mode_probe (x)")
            try db.execute(sql: "INSERT INTO mode_probe VALUES (1)")
            modes["-journal"] = mode(path + "-journal")
        }
        try probe.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        try probe.write { try $0.execute(sql: "INSERT INTO mode_probe VALUES (2)") }
        modes["-wal"] = mode(path + "-wal")
        modes["-shm"] = mode(path + "-shm")
        return modes
    }

    @Test func aHistoryIsReadableByItsGroupAloneAndSoAreItsSideFiles() throws {
        let path = directory + "/history.sqlite"
        try underUsualUmask {
            _ = try HistoryStore(path: path, faults: FaultLog(sink: { _ in }))
            #expect(mode(path) == 0o640)
            #expect(try sideFileModes(of: path) == ["-journal": 0o640, "-wal": 0o640, "-shm": 0o640])
        }
    }

    /// The kiosk's opening (`HistoryStore.opening`, which never refuses to start), in a
    /// directory it makes; the collector's is `HistoryStore(path:faults:)`, as above.
    @Test func theKiosksHistoryIsToo() {
        underUsualUmask {
            let kiosk = directory + "/kiosk/history.sqlite"
            _ = HistoryStore.opening(path: kiosk, faults: FaultLog(sink: { _ in }))
            #expect(mode(kiosk) == 0o640)
        }
    }

    @Test func theOutboxIsTheStationsAloneAndSoAreItsSideFiles() throws {
        let path = directory + "/outbox.sqlite"
        try underUsualUmask {
            let outbox = try FleetOutbox(path: path)
            try outbox.add(id: "r1", payload: "{}")
            #expect(mode(path) == 0o600)
            #expect(try sideFileModes(of: path) == ["-journal": 0o600, "-wal": 0o600, "-shm": 0o600])
        }
    }

    @Test func theJournalAndACopyKeptOfItAreTheKiosksAlone() throws {
        let path = directory + "/state.journal"
        try underUsualUmask {
            let journal = KioskJournal<[String: String]>(path: path, slotSize: 4096)
            try journal.save(["card": "04A1B2C3"])
            #expect(mode(path) == 0o600)
            let kept = journal.keepCopy()
            let copy = try #require(try FileManager.default.contentsOfDirectory(atPath: directory).first { $0.hasPrefix("state.journal.corrupt-") })
            #expect(mode(directory + "/" + copy) == 0o600, "\(kept)")
        }
    }

    /// Made before this release under umask 022: others' bits are taken away on open, group
    /// bits left, and the log names each file.
    @Test func anExistingHistoryOthersCouldReadIsClosedToThemAndTheLogSaysSo() throws {
        let path = directory + "/history.sqlite"
        try underUsualUmask {
            _ = try HistoryStore(path: path, faults: FaultLog(sink: { _ in }))
            // Another connection in WAL mode, open meanwhile, keeps a -wal and a -shm there.
            let other = try DatabaseQueue(path: path)
            try other.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
            try other.write { try $0.execute(sql: "CREATE TABLE mode_probe (x)") }
            for file in [path, path + "-wal", path + "-shm"] { #expect(chmod(file, 0o644) == 0) }
            var lines: [String] = []
            _ = try HistoryStore(path: path, faults: FaultLog(sink: { lines.append($0) }))
            #expect(mode(path) == 0o640 && mode(path + "-wal") == 0o640 && mode(path + "-shm") == 0o640)
            #expect(lines == [
                "\(path) (0644 → 0640), \(path)-wal (0644 → 0640), \(path)-shm (0644 → 0640): open to every local user, now closed to them (it holds members' data)",
            ])
        }
    }

    @Test func anExistingJournalOrOutboxOthersCouldReadIsClosedToThem() throws {
        let journalPath = directory + "/state.journal"
        let outboxPath = directory + "/outbox.sqlite"
        try underUsualUmask {
            try KioskJournal<[String: String]>(path: journalPath, slotSize: 4096).save(["card": "04A1B2C3"])
            _ = try FleetOutbox(path: outboxPath)
            #expect(chmod(journalPath, 0o664) == 0 && chmod(outboxPath, 0o604) == 0)
            var lines: [String] = []
            let journal = KioskJournal<[String: String]>(path: journalPath, slotSize: 4096)
            journal.log = { lines.append($0) }
            #expect(try journal.load() == ["card": "04A1B2C3"])
            _ = try FleetOutbox(path: outboxPath, log: { lines.append($0) })
            #expect(mode(journalPath) == 0o660 && mode(outboxPath) == 0o600)
            #expect(lines == [
                "\(journalPath) (0664 → 0660): open to every local user, now closed to them (it holds members' data)",
                "\(outboxPath) (0604 → 0600): open to every local user, now closed to them (it holds members' data)",
            ])
        }
    }
}
