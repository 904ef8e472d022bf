import ArgumentParser
import Foundation
import GymTimerConfig
import GymTimerHistory
import GymTimerRuntime
import GymTimerSetup
import GymTimerSystem
import GymTimerUpgrade

/// `gymtimer upgrade run`: the station's upgrade agent (docs/upgrades.md), run as root by
/// `gymtimer-upgrade.timer` and `gymtimer-upgrade.path`: upgrades the gym's package when it may.
struct Upgrade: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade", abstract: "Upgrade this station from the gym's package source (the upgrade agent).",
        subcommands: [UpgradeRun.self])
}

/// `gymtimer upgrade run [--force] [--wait SECONDS]`.
struct UpgradeRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Refresh the gym's source; install a newer gymtimer if asked for or inside [upgrade] window, once the station is idle.",
        discussion: """
            Writes what it found to the upgrade folder beside the history (status.json), for the kiosk \
            to report. Exit status 0 when upgraded, up to date or not now (the last line says which), \
            1 when a step failed.
            """)

    @Option(name: .long, help: "Config file (TOML): its [history] path places the station's data, its [upgrade] window the hours.")
    var config: String = defaultKioskConfigPath

    @Flag(name: .long, help: "Install now, even outside the window and while a run is under way (the kiosk resumes it after its restart).")
    var force = false

    @Option(name: .long, help: "Seconds to wait for the station to be idle before giving up until the next run.")
    var wait: Int = 0

    @Option(name: .long, help: "The deb822 file naming the gym's repository.")
    var sources: String = AptPackageSource.defaultSourcesFile

    @Option(name: .long, help: .hidden)
    var aptTools: String = "/usr/bin"

    func validate() throws {
        guard (0...86_400).contains(wait) else { throw ValidationError("--wait is 0 to 86400 seconds") }
    }

    func run() throws {
        let configuration = FileManager.default.fileExists(atPath: config) || config != defaultKioskConfigPath
            ? try loadConfiguration(config) : .defaults
        let dataDirectory = (configuration.history.path as NSString).deletingLastPathComponent
        let zone = TimeZone.current
        var agent = UpgradeAgent(
            station: StationUpgrade(folder: dataDirectory + "/upgrade"),
            source: AptPackageSource(sourcesFile: sources, tools: aptTools),
            activity: StationActivity(journalPath: dataDirectory + "/" + KioskStore<HistoryStore>.journalName).underWay,
            window: configuration.upgrade.window,
            now: { Int64(Date().timeIntervalSince1970) },
            utcOffset: { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0))) },
            sleep: { Thread.sleep(forTimeInterval: Double($0.components.seconds)) },
            log: { line in
                // Each step in the journal as it happens (stdout is a pipe there: print alone
                // would hold the lines until the end of an hour's wait).
                print(line)
                fflush(nil)   // every stream: Swift 6 will not name the C global stdout
            })
        agent.clockTrusted = { ClockReading.now().synchronised }
        let outcome = agent.run(force: force, waitUpTo: .seconds(wait))
        print(outcome.line)
        if !outcome.succeeded { throw ExitCode(1) }
    }
}
