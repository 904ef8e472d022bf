import Foundation
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerTestSupport
import Testing

/// The upgrade agent (root) in a folder the kiosk's user owns, on real files: a link in the
/// folder's place, or in place of `status.json` or `request`, and a folder others may write
/// in, are refused with one line and nothing written anywhere; a link planted after the check
/// is replaced or removed itself, what it points to untouched; the normal case still works.
@Suite struct UpgradeFolderTests {
    let data = testDirectory("upgrade-folder")
    /// A root-only folder elsewhere, which a link planted by the kiosk's user points to.
    let target = testDirectory("upgrade-folder-target")
    var folder: String { data + "/upgrade" }
    var station: StationUpgrade { StationUpgrade(folder: folder) }
    let source = UpgradeAgentTests.SourceDouble()

    init() throws {
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: target + "/shadow"))
        try Data("root's own status\n".utf8).write(to: URL(fileURLWithPath: target + "/status.json"))
        try Data("root's own request\n".utf8).write(to: URL(fileURLWithPath: target + "/request"))
    }

    /// An agent asked for an upgrade, inside no window, over the package source double.
    func run() -> UpgradeOutcome {
        UpgradeAgent(
            station: station, source: source, activity: { nil }, window: nil, now: { 1_795_923_000 }, utcOffset: { _ in 0 },
            sleep: { _ in }, log: { _ in }
        ).run(force: true)
    }

    /// Every entry under `path`, never following a link: a file's bytes, a link's target.
    func listing(_ path: String) -> [String: String] {
        var entries: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            let full = path + "/" + name
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFLNK: entries[name] = "-> " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "?")
            case S_IFDIR: for (inner, value) in listing(full) { entries[name + "/" + inner] = value }
            default: entries[name] = (try? String(contentsOfFile: full, encoding: .utf8)) ?? "?"
            }
        }
        return entries
    }

    var targetAsItWas: [String: String] {
        ["shadow": "secret\n", "status.json": "root's own status\n", "request": "root's own request\n"]
    }

    @Test func aLinkInPlaceOfTheFolderIsRefusedAndNothingIsWritten() throws {
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: target)
        let outcome = run()
        #expect(outcome.line == "upgrade failed: opening the upgrade folder \(folder): it is a symbolic link, not a folder: nothing written (remove it; the next run makes the folder)")
        #expect(!outcome.succeeded)
        #expect(source.steps.isEmpty, "refused before apt runs")
        #expect(listing(target) == targetAsItWas, "the link's target untouched, its request not deleted")
        #expect(listing(data) == ["upgrade": "-> " + target], "nothing else written beside it")
    }

    @Test func aLinkToAFileInPlaceOfTheFolderIsRefused() throws {
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: target + "/shadow")
        #expect(run().line.hasSuffix(": it is a symbolic link, not a folder: nothing written (remove it; the next run makes the folder)"))
        #expect(listing(target) == targetAsItWas)
    }

    @Test func aFileInPlaceOfTheFolderIsRefused() throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder))
        #expect(run().line == "upgrade failed: opening the upgrade folder \(folder): it is not a folder: nothing written (remove it; the next run makes the folder)")
        #expect(listing(data) == ["upgrade": "x"])
    }

    @Test(arguments: [UpgradeFolder.statusName, UpgradeFolder.requestName])
    func aLinkInPlaceOfAFileIsRefusedAndItsTargetUntouched(name: String) throws {
        _ = try station.openFolder()
        try FileManager.default.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: target + "/" + name)
        let outcome = run()
        #expect(outcome.line == "upgrade failed: opening the upgrade folder \(folder): \(folder)/\(name) is a symbolic link: nothing written (remove it)")
        #expect(source.steps.isEmpty)
        #expect(listing(target) == targetAsItWas)
        #expect(listing(folder) == [name: "-> " + target + "/" + name])
    }

    @Test func aFolderOthersMayWriteInIsRefused() throws {
        _ = try station.openFolder()
        #expect(chmod(folder, 0o777) == 0)
        let outcome = run()
        #expect(outcome.line == "upgrade failed: opening the upgrade folder \(folder): others may write in it (mode 777): nothing written (sudo chmod go-w \(folder))")
        #expect(listing(folder).isEmpty)
    }

    @Test(.enabled(if: getuid() == 0, "chown needs root"))
    func aFolderOfAnotherUserIsRefused() throws {
        _ = try station.openFolder()
        #expect(chown(folder, 4242, 4242) == 0)
        let outcome = run()
        #expect(outcome.line.hasSuffix("it belongs to user 4242, neither root nor the kiosk's user 0 (the data directory's owner): nothing written (sudo chown 0 \(folder))"), "\(outcome.line)")
        #expect(listing(folder).isEmpty)
    }

    @Test(.enabled(if: getuid() == 0, "chown needs root"))
    func aFileOfAnotherUserIsRefused() throws {
        _ = try station.openFolder()
        try station.request(id: "x", at: 1)
        #expect(chown(station.requestPath, 4242, 4242) == 0)
        #expect(run().line.hasSuffix("\(station.requestPath) belongs to user 4242, neither root nor the kiosk's user 0: nothing written (remove it)"))
        #expect(FileManager.default.fileExists(atPath: station.requestPath))
    }

    /// Links planted after the folder was checked: `status.json`'s is replaced by the status,
    /// `request`'s removed, and what they point to is not touched.
    @Test func aLinkPlantedAfterTheCheckIsReplacedNotFollowed() throws {
        let open = try station.openFolder()
        try FileManager.default.createSymbolicLink(atPath: station.statusPath, withDestinationPath: target + "/status.json")
        try FileManager.default.createSymbolicLink(atPath: station.requestPath, withDestinationPath: target + "/request")
        #expect(open.requested == false, "a link is no request")
        try open.write(UpgradeStatus(installed: "0.9.0-1", latest: "0.9.0-2"))
        try open.finishRequest()
        #expect(listing(target) == targetAsItWas)
        #expect(listing(folder) == ["status.json": "{\"installed\":\"0.9.0-1\",\"latest\":\"0.9.0-2\"}\n"])
        var info = stat()
        #expect(lstat(station.statusPath, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_mode & 0o777 == 0o644)
    }

    /// The folder moved and a link put in its place after the check: the open folder is still
    /// the one written, never the link's target.
    @Test func aFolderSwappedForALinkAfterTheCheckIsStillTheOneWritten() throws {
        let open = try station.openFolder()
        #expect(rename(folder, data + "/moved") == 0)
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: target)
        try open.write(UpgradeStatus(installed: "0.9.0-1", latest: nil))
        try open.finishRequest()
        #expect(listing(target) == targetAsItWas)
        #expect(listing(data + "/moved") == ["status.json": "{\"installed\":\"0.9.0-1\",\"latest\":null}\n"])
    }

    @Test func theNormalCaseUpgradesWritesTheStatusAndClearsTheRequest() throws {
        _ = try station.openFolder()
        try station.request(id: "ha", at: 1)
        #expect(run() == .upgraded(from: "0.9.0-1", to: "0.9.0-2"))
        #expect(listing(folder) == ["status.json": "{\"installed\":\"0.9.0-2\",\"latest\":\"0.9.0-2\"}\n"])
        var info = stat()
        #expect(stat(folder, &info) == 0 && info.st_mode & 0o7777 == 0o755, "made 0755 whatever the umask")
    }
}
