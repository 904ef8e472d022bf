import Foundation
import GymTimerSystem

/// The gym's apt repository (docs/upgrades.md): apt refreshes and asks only the gym's source
/// file, so a station takes nothing else at an upgrade, and apt checks the repository's
/// signature against the key its `Signed-By` names (never `trusted=yes`). The packages are
/// installed non-interactively, keeping the owner's edited config (`--force-confold`).
public struct AptPackageSource: PackageSource {
    /// The deb822 file naming the gym's repository and its key.
    public var sourcesFile: String
    /// Where apt-get and apt-cache are (another folder only in tests: a double of apt).
    public var tools: String
    /// The packages upgraded together (gymtimer-server only where it is installed: apt skips a
    /// package `--only-upgrade` finds not installed).
    public var packages = ["gymtimer", "gymtimer-server"]

    public static let defaultSourcesFile = "/etc/apt/sources.list.d/gymtimer.sources"

    public init(sourcesFile: String = AptPackageSource.defaultSourcesFile, tools: String = "/usr/bin") {
        self.sourcesFile = sourcesFile
        self.tools = tools
    }

    /// apt's options that make it read the gym's source alone.
    private var gymSourceOnly: [String] {
        ["-o", "Dir::Etc::SourceList=\(sourcesFile)", "-o", "Dir::Etc::SourceParts=-", "-o", "APT::Get::List-Cleanup=0"]
    }

    private var installOptions: [String] {
        ["-y", "-q", "--only-upgrade", "-o", "Dpkg::Options::=--force-confdef", "-o", "Dpkg::Options::=--force-confold"] + packages
    }

    public func refresh() throws(UpgradeError) {
        guard FileManager.default.fileExists(atPath: sourcesFile) else {
            throw UpgradeError("refreshing the gym's package source", "no \(sourcesFile): point the station at the gym's repository first (docs/upgrades.md)")
        }
        // --error-on=any: a repository whose signature fails, once it had a good one, is otherwise
        // only a warning (exit 0, the last verified index kept).
        _ = try run("refreshing the gym's package source", "apt-get", ["-q", "update", "--error-on=any"] + gymSourceOnly, minutes: 10)
    }

    public func versions() throws(UpgradeError) -> PackageVersions {
        let output = try run("reading the versions", "apt-cache", ["policy", "gymtimer"] + gymSourceOnly, minutes: 2)
        return Self.parsePolicy(output)
    }

    public func download() throws(UpgradeError) {
        _ = try run("downloading", "apt-get", ["install", "--download-only"] + installOptions, minutes: 30)
    }

    public func install() throws(UpgradeError) {
        _ = try run("installing", "apt-get", ["install"] + installOptions, minutes: 30)
    }

    /// `apt-cache policy gymtimer`'s installed and candidate versions (`(none)`: nil).
    public static func parsePolicy(_ output: String) -> PackageVersions {
        var versions = PackageVersions(installed: nil, candidate: nil)
        for line in output.split(whereSeparator: \.isNewline) {
            let words = line.split(separator: " ")
            guard words.count == 2, UpgradeStatus.isVersion(String(words[1])) else { continue }
            if words[0] == "Installed:" { versions.installed = String(words[1]) }
            if words[0] == "Candidate:" { versions.candidate = String(words[1]) }
        }
        return versions
    }

    /// Runs one apt program in the C locale, answering no question; its output, or why it failed.
    private func run(_ step: String, _ program: String, _ arguments: [String], minutes: Int64) throws(UpgradeError) -> String {
        var child = ChildProcess(
            executable: tools + "/" + program, arguments: arguments,
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C", "DEBIAN_FRONTEND": "noninteractive"],
            timeout: .seconds(minutes * 60))
        child.capturesStandardOutput = true
        let outcome: ChildProcess.Outcome
        do {
            outcome = try child.run()
        } catch {
            throw UpgradeError(step, "\(error)")
        }
        guard outcome.exitCode == 0, !outcome.timedOut else {
            let how = outcome.timedOut ? "did not finish in \(minutes) minutes" : outcome.exitCode.map { "exited with \($0)" } ?? "was killed by signal \(outcome.signal ?? 0)"
            let said = outcome.standardError.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("E:") || $0.hasPrefix("W:") || $0.hasPrefix("Err") }
            let last = (said.isEmpty ? Array(outcome.standardError.split(whereSeparator: \.isNewline).suffix(2)) : Array(said.suffix(3))).joined(separator: " / ")
            throw UpgradeError(step, "\(program) \(how)\(last.isEmpty ? "" : ": " + last)")
        }
        return outcome.standardError
    }
}
