import GymTimerCore

/// The upgrade agent (`gymtimer upgrade run`, root, run by `gymtimer-upgrade.timer` and by
/// `gymtimer-upgrade.path` when the kiosk writes a request): refreshes the gym's source, tells
/// the kiosk what is installed and what is offered (`status.json`), and installs a newer
/// package only when it may:
///
/// * asked for (a `request` from Home Assistant's Install, `gymtimer fleet upgrade`, the
///   console), or unasked inside the config's `[upgrade] window` (outside class hours);
/// * and only while nothing is under way at the station (`StationActivity`): it downloads
///   first, then waits up to `waitUpTo` for the station to be idle, checking every
///   `pollInterval`. `force` skips both conditions; the restarted kiosk resumes its run from
///   its journal, as after any restart.
///
/// Time and waiting are injected (`now`, `sleep`), so tests run it in virtual time.
public struct UpgradeAgent {
    public var station: StationUpgrade
    public var source: any PackageSource
    /// What is under way at the station, nil when it is idle.
    public var activity: () -> String?
    public var window: SleepWindow?
    /// The wall clock (seconds since the epoch) and the zone's offset east of UTC at an instant.
    public var now: () -> Int64
    public var utcOffset: (Int64) -> Int
    public var sleep: (Duration) -> Void
    public var log: (String) -> Void
    public var pollInterval: Duration = .seconds(15)
    /// Whether the wall clock is synchronised: an unsynchronised one cannot tell class hours.
    public var clockTrusted: () -> Bool = { true }

    public init(
        station: StationUpgrade, source: any PackageSource, activity: @escaping () -> String?, window: SleepWindow?,
        now: @escaping () -> Int64, utcOffset: @escaping (Int64) -> Int, sleep: @escaping (Duration) -> Void,
        log: @escaping (String) -> Void
    ) {
        self.station = station
        self.source = source
        self.activity = activity
        self.window = window
        self.now = now
        self.utcOffset = utcOffset
        self.sleep = sleep
        self.log = log
    }

    /// One run: `force` installs whatever the moment; `waitUpTo` bounds the wait for idle.
    public func run(force: Bool = false, waitUpTo: Duration = .zero) -> UpgradeOutcome {
        do throws(UpgradeError) {
            // First, before apt runs: a folder that is a link or not as expected stops the run.
            let folder = try station.openFolder()
            let before = try checkSource(folder)
            guard before.offersNewer, let installed = before.installed, let candidate = before.candidate else {
                try folder.finishRequest()
                return .upToDate(before.installed ?? "?")
            }
            let requested = folder.requested
            if !force, let why = reasonOutsideWindow(requested: requested) { return .notNow(why) }
            log("downloading gymtimer \(candidate) (installed: \(installed))")
            try source.download()
            if !force, let why = waitForIdle(upTo: waitUpTo, requested: requested) { return .notNow(why) }
            log("installing gymtimer \(candidate)\(force ? " (forced)" : "")")
            try source.install()
            let after = try source.versions()
            try folder.write(UpgradeStatus(installed: after.installed ?? candidate, latest: after.candidate))
            try folder.finishRequest()
            guard after.installed == candidate else {
                throw UpgradeError("installing", "apt finished but gymtimer \(after.installed ?? "(none)") is installed, not \(candidate)")
            }
            return .upgraded(from: installed, to: candidate)
        } catch {
            return .failed(error)
        }
    }

    /// Refreshes the gym's source and writes what it found for the kiosk. A source that cannot
    /// be refreshed still leaves the installed version in `status.json` (the latest unknown).
    private func checkSource(_ folder: UpgradeFolder) throws(UpgradeError) -> PackageVersions {
        do {
            try source.refresh()
        } catch {
            if let installed = try? source.versions().installed { try? folder.write(UpgradeStatus(installed: installed, latest: nil)) }
            throw error
        }
        let versions = try source.versions()
        guard let installed = versions.installed else {
            throw UpgradeError("reading the versions", "gymtimer is not installed as a package here (a station installed with install.sh upgrades with install.sh)")
        }
        try folder.write(UpgradeStatus(installed: installed, latest: versions.candidate ?? installed))
        log("installed: gymtimer \(installed); the gym's source offers \(versions.candidate ?? "nothing")")
        return versions
    }

    /// Why an unasked upgrade may not happen now: no window configured, or outside it.
    private func reasonOutsideWindow(requested: Bool) -> String? {
        if requested { return nil }
        guard let window else { return "nobody asked for it and the config has no [upgrade] window" }
        guard clockTrusted() else { return "the clock is not synchronised, so the upgrade window \(window) cannot be told" }
        return window.contains(unix: now(), utcOffset: utcOffset) ? nil : "outside the upgrade window \(window)"
    }

    /// Waits for the station to be idle (and, unasked, to stay inside the window); nil once it
    /// is, else why the wait ended.
    private func waitForIdle(upTo limit: Duration, requested: Bool) -> String? {
        var waited = Duration.zero
        while true {
            if let why = reasonOutsideWindow(requested: requested) { return why }
            guard let busy = activity() else { return nil }
            guard waited + pollInterval <= limit else {
                return busy + (waited > .zero ? " (waited \(waited.components.seconds) s)" : "")
            }
            if waited == .zero { log("waiting for the station to be idle: \(busy)") }
            sleep(pollInterval)
            waited += pollInterval
        }
    }
}
