import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerTestSupport
import Testing

/// The upgrade agent's decisions in virtual time, over a double of the gym's package source:
/// what it writes for the kiosk, when it installs (asked for, or inside the window) and that
/// it never installs while something is under way unless forced.
@Suite struct UpgradeAgentTests {
    /// A package source in memory that records each step.
    final class SourceDouble: PackageSource {
        var installed: String? = "0.9.0-1"
        var offered: String? = "0.9.0-2"
        var refreshFails = false
        var steps: [String] = []

        func refresh() throws(UpgradeError) {
            steps.append("refresh")
            if refreshFails { throw UpgradeError("refreshing the gym's package source", "apt-get exited with 100: E: The repository is not signed.") }
        }
        func versions() throws(UpgradeError) -> PackageVersions {
            PackageVersions(installed: installed, candidate: [installed, offered].compactMap { $0 }.max())
        }
        func download() throws(UpgradeError) { steps.append("download") }
        func install() throws(UpgradeError) {
            steps.append("install")
            installed = offered
        }
    }

    let data = testDirectory("upgrade-agent")
    var station: StationUpgrade { StationUpgrade(folder: data + "/upgrade") }
    let source = SourceDouble()
    /// 2026-11-29 03:30 UTC, inside 02:00–05:00 in UTC.
    let night: Int64 = 1_795_923_000

    /// The agent at `unix` (the clock moves on with each virtual sleep), the station's activity
    /// given by `busy` for the first `busyPolls` looks.
    func agent(at unix: Int64, window: String? = nil, busy: String? = nil, busyPolls: Int = .max, log: @escaping (String) -> Void = { _ in })
        -> (UpgradeAgent, () -> (sleeps: Int, looks: Int))
    {
        final class Counters { var sleeps = 0; var looks = 0; var now: Int64 = 0 }
        let counters = Counters()
        counters.now = unix
        let parsed = window.map { text -> SleepWindow in
            let ends = text.split(separator: "-").map(String.init)
            guard case .success(let w) = SleepWindow.parse(from: ends[0], until: ends[1]) else { fatalError(text) }
            return w
        }
        let agent = UpgradeAgent(
            station: station, source: source,
            activity: {
                counters.looks += 1
                return counters.looks <= busyPolls ? busy : nil
            },
            window: parsed, now: { counters.now }, utcOffset: { _ in 0 },
            sleep: { counters.sleeps += 1; counters.now += $0.components.seconds }, log: log)
        return (agent, { (counters.sleeps, counters.looks) })
    }

    func status() -> String? { try? String(contentsOfFile: station.statusPath, encoding: .utf8) }

    @Test func nothingNewerWritesTheVersionsAndClearsARequest() throws {
        source.offered = nil
        _ = try station.openFolder()
        try station.request(id: "r1", at: 1)
        let outcome = agent(at: night).0.run()
        #expect(outcome == .upToDate("0.9.0-1"))
        #expect(status() == "{\"installed\":\"0.9.0-1\",\"latest\":\"0.9.0-1\"}\n")
        #expect(!station.requested, "nothing to do: the kiosk no longer says in progress")
        #expect(source.steps == ["refresh"])
    }

    @Test func unaskedWithoutAWindowOnlyReports() {
        let outcome = agent(at: night).0.run()
        #expect(outcome == .notNow("nobody asked for it and the config has no [upgrade] window"))
        #expect(status() == "{\"installed\":\"0.9.0-1\",\"latest\":\"0.9.0-2\"}\n")
        #expect(source.steps == ["refresh"])
    }

    @Test func unaskedOutsideTheWindowWaitsForIt() {
        let afternoon = night + 11 * 3600   // 14:30
        #expect(agent(at: afternoon, window: "02:00-05:00").0.run() == .notNow("outside the upgrade window 02:00–05:00"))
        #expect(source.steps == ["refresh"])
    }

    @Test func insideTheWindowAnIdleStationUpgrades() {
        var lines: [String] = []
        let outcome = agent(at: night, window: "22:00-05:00", log: { lines.append($0) }).0.run()
        #expect(outcome == .upgraded(from: "0.9.0-1", to: "0.9.0-2"))
        #expect(source.steps == ["refresh", "download", "install"])
        #expect(status() == "{\"installed\":\"0.9.0-2\",\"latest\":\"0.9.0-2\"}\n")
        #expect(lines == [
            "installed: gymtimer 0.9.0-1; the gym's source offers 0.9.0-2", "downloading gymtimer 0.9.0-2 (installed: 0.9.0-1)",
            "installing gymtimer 0.9.0-2",
        ])
    }

    @Test func anUnsynchronisedClockCannotTellTheWindow() {
        var (agent, _) = agent(at: night, window: "02:00-05:00")
        agent.clockTrusted = { false }
        #expect(agent.run() == .notNow("the clock is not synchronised, so the upgrade window 02:00–05:00 cannot be told"))
        #expect(source.steps == ["refresh"])
    }

    /// Asked for during a rest: downloaded at once, installed only once the rest is over.
    @Test func aRequestWaitsForTheRestToEnd() throws {
        _ = try station.openFolder()
        try station.request(id: "ha", at: 1)
        let (agent, counters) = agent(at: night + 11 * 3600, busy: "a rest is counting down", busyPolls: 4)
        let outcome = agent.run(waitUpTo: .seconds(600))
        #expect(outcome == .upgraded(from: "0.9.0-1", to: "0.9.0-2"))
        #expect(counters().looks == 5 && counters().sleeps == 4, "looked every 15 s until idle: \(counters())")
        #expect(source.steps == ["refresh", "download", "install"])
        #expect(!station.requested)
    }

    @Test func aRunThatOutlastsTheWaitIsNotInterrupted() throws {
        _ = try station.openFolder()
        try station.request(id: "ha", at: 1)
        let (agent, counters) = agent(at: night, busy: "an interval is running")
        #expect(agent.run(waitUpTo: .seconds(60)) == .notNow("an interval is running (waited 60 s)"))
        #expect(counters().sleeps == 4)
        #expect(source.steps == ["refresh", "download"], "downloaded, never installed")
        #expect(station.requested, "the request stays for the next run")
        #expect(status() == "{\"installed\":\"0.9.0-1\",\"latest\":\"0.9.0-2\"}\n")
    }

    @Test func forcedInstallsMidRunAndOutsideTheWindow() {
        let (agent, counters) = agent(at: night + 11 * 3600, window: "02:00-05:00", busy: "a rest is counting down")
        #expect(agent.run(force: true) == .upgraded(from: "0.9.0-1", to: "0.9.0-2"))
        #expect(counters().looks == 0, "forced: the station is not asked")
        #expect(source.steps == ["refresh", "download", "install"])
    }

    @Test func anUnreachableSourceKeepsTheInstalledVersionAndFails() {
        source.refreshFails = true
        let outcome = agent(at: night, window: "02:00-05:00").0.run()
        #expect(outcome.line == "upgrade failed: refreshing the gym's package source: apt-get exited with 100: E: The repository is not signed.")
        #expect(!outcome.succeeded)
        #expect(status() == "{\"installed\":\"0.9.0-1\",\"latest\":null}\n")
    }

    @Test func aStationNotInstalledAsAPackageSaysHowItUpgrades() {
        source.installed = nil
        let outcome = agent(at: night).0.run()
        #expect(outcome.line.hasPrefix("upgrade failed: reading the versions: gymtimer is not installed as a package here"))
        #expect(status() == nil)
    }

    @Test func theFolderIsMadeForTheKiosk() throws {
        #expect(!FileManager.default.fileExists(atPath: station.folder))
        _ = agent(at: night).0.run()
        var info = stat()
        #expect(stat(station.folder, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR)
    }
}
