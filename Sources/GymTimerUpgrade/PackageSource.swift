/// Where the upgrade agent gets GymTimer's packages: the gym's apt repository on a station
/// (`AptPackageSource`), a double in the tests. Each step says what failed in an `UpgradeError`.
public protocol PackageSource {
    /// Fetches the source's newest package lists (only the gym's source, not Debian's).
    func refresh() throws(UpgradeError)
    /// The installed version of GymTimer and the newest one the source offers.
    func versions() throws(UpgradeError) -> PackageVersions
    /// Downloads the newer packages without installing them (the slow part, done before the
    /// agent waits for the station to be idle, so the install itself is short).
    func download() throws(UpgradeError)
    /// Installs them: the package's scripts restart the kiosk, which resumes from its journal.
    func install() throws(UpgradeError)
}

/// The installed version and the source's newest; nil where there is none (not installed as a
/// package; the source offers nothing).
public struct PackageVersions: Hashable, Sendable {
    public var installed: String?
    public var candidate: String?

    public init(installed: String?, candidate: String?) {
        self.installed = installed
        self.candidate = candidate
    }

    /// Whether the source offers a version other than the installed one (apt's candidate is
    /// the installed version unless the source has a newer one).
    public var offersNewer: Bool { installed != nil && candidate != nil && candidate != installed }
}
